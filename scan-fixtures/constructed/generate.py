#!/usr/bin/env python3
"""Writes the constructed DeepSeek harness sessions in this folder.

These are NOT written by a published writer (none writes v1, v2 or v3; see
README.md): each event is built here from the format descriptions the README
names. Run `python3 generate.py` from this folder; the output is
deterministic and committed.
"""

import json
import os

HINT = ("[sandbox: escalation available \u2014 retry this exact command once with "
        "sandbox_permissions (the narrowest wider mode that suffices) + justification; "
        "the approval prompt asks the user]")
ACL = "Error: SetNamedSecurityInfoW failed (Win32 5): grantWrite({})"


class Log:
    """Numbers events densely from seq 0 and stamps one second apart."""

    def __init__(self, header, start):
        self.lines = [header]
        self.seq = 0
        self.time = start
        self.ids = 0

    def tick(self):
        self.time += 1000
        return self.time

    def add(self, kind, data, **envelope):
        event = {"type": kind, "seq": self.seq, "time": self.tick(), "data": data}
        event.update(envelope)
        self.lines.append(event)
        self.seq += 1
        return self.seq - 1

    def packed(self, kind, turn, step, index, texts):
        """A v0/v1 packed chunk row: one line, len(texts) seqs."""
        row = {"type": kind, "seq0": self.seq, "time0": self.tick(),
               "data": {"turn": turn, "step": step, "index": index,
                        "dt": [1000] * (len(texts) - 1), "texts": texts}}
        self.time += 1000 * (len(texts) - 1)
        self.lines.append(row)
        self.seq += len(texts)
        return self.seq - len(texts)

    def msg_id(self):
        self.ids += 1
        return "00000000-0000-4000-8000-%012x" % self.ids

    def call(self, turn, step, call_id, name, arguments):
        return self.add("tool/call", {"turn": turn, "step": step, "callId": call_id,
                                      "name": name, "arguments": arguments})

    def result(self, turn, step, call_id, call_seq, text, is_error, error=None):
        data = {"turn": turn, "step": step, "message": {
            "id": self.msg_id(), "role": "user", "source": {"kind": "tool", "callId": call_id},
            "content": [{"type": "tool-result", "toolCallId": call_id,
                         "content": [{"type": "text", "text": text}], "isError": is_error}]}}
        if error is not None:
            data["error"] = error
        return self.add("tool/result", data, sourceEventSeqs=[call_seq], surfaceOp="append")

    def message(self, turn, step, usage, calls=(), stream=None, cites=None):
        content = [{"type": "tool-call", "id": c, "name": n, "arguments": a} for c, n, a in calls]
        if not content:
            content = [{"type": "text", "text": "Done."}]
        data = {"turn": turn, "step": step, "message": {
            "id": self.msg_id(), "role": "assistant", "content": content,
            "source": {"kind": "model", "provider": "deepseek", "model": "deepseek-chat"}}}
        if stream is not None:
            data["stream"] = stream
        if usage is not None:
            data["usage"] = usage
        envelope = {"surfaceOp": "append"}
        if cites is not None:
            envelope["sourceEventSeqs"] = cites
        return self.add("assistant/message", data, **envelope)

    def user(self, text, source):
        return self.add("user/message", {"id": self.msg_id(), "role": "user",
                                         "content": [{"type": "text", "text": text}],
                                         "source": source}, surfaceOp="append")

    def write(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="\n") as f:
            for line in self.lines:
                f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


def usage(i, o, cached=None):
    u = {"inputTokens": i, "outputTokens": o}
    if cached is not None:
        u["cacheReadTokens"] = cached
    return u


def chunk(time, c):
    return {"type": "chunk", "time": time, "chunk": c}


def pwsh(command):
    return json.dumps({"command": command})


ADVISOR = {"kind": "plugin", "plugin": "sandbox-grant-advisor",
           "summary": "Windows sandbox could not grant write access to D:\\ws"}


def v2_acl():
    log = Log({"type": "session", "version": 2, "id": "constructed-v2-acl",
               "createdAt": 1768500000000, "cwd": "D:\\ws", "isSeeded": False,
               "delegationDepth": 0}, 1768500000000)
    cmd = pwsh("Set-Content -Path notes.txt -Value 'hello'")
    log.add("turn/start", {"turn": 1})
    log.add("step/start", {"turn": 1, "step": 1})
    log.user("Create notes.txt.", {"kind": "user"})
    # A failed attempt: its usage is only in its stream.
    log.add("assistant/attempt", {"turn": 1, "step": 1, "stream": [
        chunk(log.time, {"type": "block-start", "index": 0, "blockType": "text"}),
        chunk(log.time, {"type": "usage", "usage": usage(2000, 7)}),
        chunk(log.time, {"type": "finish", "reason": {"kind": "error"}})]})
    # The message's own stream repeats a usage chunk that must not count.
    log.message(1, 1, usage(2100, 40, 2048), [("call_v2_1", "pwsh", cmd)], stream=[
        {"type": "text-chunks", "time0": log.time, "index": 0, "dt": [1, 1], "texts": ["I ", "will ", "try."]},
        chunk(log.time, {"type": "usage", "usage": usage(9999, 99)})])
    s = log.call(1, 1, "call_v2_1", "pwsh", cmd)
    log.result(1, 1, "call_v2_1", s, ACL.format("D:\\ws"), True)
    log.add("step/end", {"turn": 1, "step": 1})
    log.add("step/start", {"turn": 1, "step": 2})
    log.message(1, 2, usage(2300, 35), [("call_v2_2", "pwsh", cmd)])
    s = log.call(1, 2, "call_v2_2", "pwsh", cmd)
    log.result(1, 2, "call_v2_2", s, "Error: sandbox unavailable: the windows-acl runner failed", True,
               error={"name": "SandboxUnavailableError", "code": "SANDBOX_UNAVAILABLE"})
    log.add("step/end", {"turn": 1, "step": 2})
    log.add("step/start", {"turn": 1, "step": 3})
    log.user("[sandbox-grant-advisor] notice", ADVISOR)
    log.add("request/header", {"turn": 1, "step": 3, "header": {}})
    log.message(1, 3, usage(2500, 20), [("call_v2_3", "pwsh", cmd)])
    s = log.call(1, 3, "call_v2_3", "pwsh", cmd)
    log.result(1, 3, "call_v2_3", s, "[stderr]\nSet-Content: Access to the path 'D:\\ws\\notes.txt' is denied.\n"
               "[sandbox: file access denied under workspace-write mode]\n" + HINT + "\n[exit code: 1]", False)
    log.add("step/end", {"turn": 1, "step": 3})
    log.add("turn/end", {"turn": 1, "reason": {"kind": "completed"}})
    log.add("sandbox/mode", {"mode": "danger-full-access"})
    log.write("constructed-v2-acl/session.v2.jsonl")


def v3_acl():
    log = Log({"type": "session", "version": 3, "id": "constructed-v3-acl",
               "createdAt": 1768510000000, "cwd": "C:/Users/dev/ws", "isSeeded": False,
               "delegationDepth": 0, "agentPreset": "ptc"}, 1768510000000)
    cmd = pwsh("New-Item -ItemType File x.txt")
    log.add("turn/start", {"turn": 1})
    log.add("step/start", {"turn": 1, "step": 1})
    log.add("system/message", {"id": log.msg_id(), "role": "system", "content": []}, surfaceOp="append")
    log.user("Make x.txt.", {"kind": "user"})
    log.add("assistant/attempt", {"turn": 1, "step": 1, "stream": [
        chunk(log.time, {"type": "usage", "usage": usage(1500, 3)}),
        chunk(log.time, {"type": "finish", "reason": {"kind": "error"}})]})
    # A cancelled attempt that never reported usage.
    log.add("assistant/attempt", {"turn": 1, "step": 1, "stream": [
        chunk(log.time, {"type": "block-start", "index": 0, "blockType": "text"})]})
    log.message(1, 1, usage(1600, 25), [("call_v3_1", "pwsh", cmd)])
    s = log.call(1, 1, "call_v3_1", "pwsh", cmd)
    log.add("tool/ptc-dispatch-start", {"turn": 1, "step": 1, "callId": "call_v3_1"})
    log.result(1, 1, "call_v3_1", s, ACL.format("C:\\Users\\dev\\ws"), True)
    log.add("step/end", {"turn": 1, "step": 1})
    log.add("step/start", {"turn": 1, "step": 2})
    log.message(1, 2, usage(1700, 12), [("call_v3_2", "web_fetch", "not json {")])
    s = log.call(1, 2, "call_v3_2", "web_fetch", "not json {")
    # A marker-shaped text from a tool that starts no process: no value.
    log.result(1, 2, "call_v3_2", s, "page text\n[exit code: 1]", False)
    log.add("step/end", {"turn": 1, "step": 2})
    log.add("turn/end", {"turn": 1, "reason": {"kind": "completed"}})
    log.write("constructed-v3-acl/session.v3.jsonl")


def v3_subagent():
    log = Log({"type": "session", "version": 3, "id": "constructed-v3-sub",
               "createdAt": 1768520000000, "cwd": "/Users/dev/proj", "parentSession": "constructed-v3-acl",
               "isSeeded": False, "origin": "subagent", "delegationDepth": 1}, 1768520000000)
    cmd = json.dumps({"command": "touch /Users/dev/proj/x"})
    log.add("turn/start", {"turn": 1})
    log.add("step/start", {"turn": 1, "step": 1})
    log.add("system/message", {"id": log.msg_id(), "role": "system", "content": []}, surfaceOp="append")
    log.user("Touch x.", {"kind": "plugin", "plugin": "dsh-subagent"})
    log.message(1, 1, usage(800, 20), [("call_sub_v3_1", "bash", cmd)])
    s = log.call(1, 1, "call_sub_v3_1", "bash", cmd)
    log.result(1, 1, "call_sub_v3_1", s, "[stderr]\ntouch: /Users/dev/proj/x: Operation not permitted\n"
               "[sandbox: file access denied under read-only mode]\n[exit code: 1]", False)
    log.add("step/end", {"turn": 1, "step": 1})
    log.add("step/start", {"turn": 1, "step": 2})
    log.message(1, 2, usage(900, 8))
    log.add("step/end", {"turn": 1, "step": 2})
    log.add("turn/end", {"turn": 1, "reason": {"kind": "completed"}})
    log.write("constructed-v3-subagent/session.v3.jsonl")


def v2_fork():
    log = Log({"type": "session", "version": 2, "id": "constructed-v2-fork",
               "createdAt": 1768530000000, "cwd": "D:\\ws", "parentSession": "constructed-v2-acl",
               "isSeeded": True, "delegationDepth": 0}, 1768530000000)
    cmd = pwsh("Set-Content -Path notes.txt -Value 'hello'")
    # The inherited prefix: the parent's events, failing calls included.
    log.add("turn/start", {"turn": 1})
    log.add("step/start", {"turn": 1, "step": 1})
    log.add("sandbox/mode", {"mode": "workspace-write"})
    log.message(1, 1, usage(2100, 40), [("call_v2_1", "pwsh", cmd)])
    s = log.call(1, 1, "call_v2_1", "pwsh", cmd)
    log.result(1, 1, "call_v2_1", s, ACL.format("D:\\ws"), True)
    # The parent was itself a fork: its own marker is inherited too.
    log.add("session/end-seed", {"inherited": True})
    log.add("step/end", {"turn": 1, "step": 1})
    log.add("step/start", {"turn": 1, "step": 2})
    log.user("[sandbox-grant-advisor] notice", ADVISOR)
    log.add("assistant/attempt", {"turn": 1, "step": 2, "stream": [
        chunk(log.time, {"type": "usage", "usage": usage(500, 5)})]})
    log.message(1, 2, usage(2300, 35), [("call_v2_2", "pwsh", cmd)])
    s = log.call(1, 2, "call_v2_2", "pwsh", cmd)
    log.result(1, 2, "call_v2_2", s, ACL.format("D:\\ws"), True)
    log.add("step/end", {"turn": 1, "step": 2})
    log.add("turn/end", {"turn": 1, "reason": {"kind": "completed"}})
    # An untagged end-seed marks nothing; the last inherited one is the cut.
    log.add("session/end-seed", {})
    log.add("session/end-seed", {"inherited": True})
    log.add("turn/start", {"turn": 2})
    log.add("step/start", {"turn": 2, "step": 1})
    log.message(2, 1, usage(2600, 30), [("call_fork_1", "pwsh", cmd)])
    s = log.call(2, 1, "call_fork_1", "pwsh", cmd)
    log.result(2, 1, "call_fork_1", s, ACL.format("D:\\ws"), True)
    log.add("step/end", {"turn": 2, "step": 1})
    log.add("turn/end", {"turn": 2, "reason": {"kind": "completed"}})
    log.write("constructed-v2-fork/session.v2.jsonl")


def v1_seeded_retry():
    log = Log({"type": "session", "version": 1, "id": "constructed-v1-retry",
               "createdAt": 1768540000000, "cwd": "/home/dev/proj", "parentSession": "fixture-posix-ok",
               "seedLength": 6, "delegationDepth": 0}, 1768540000000)
    ls = json.dumps({"command": "ls"})
    # seq 0-5: inherited (seedLength 6).
    log.add("turn/start", {"turn": 1})
    log.add("step/start", {"turn": 1, "step": 1})
    c = log.add("assistant/chunk", {"turn": 1, "step": 1, "chunk": {"type": "usage", "usage": usage(100, 1)}})
    log.message(1, 1, usage(100, 1), [("call_inherited", "bash", ls)], cites=[c])
    s = log.call(1, 1, "call_inherited", "bash", ls)
    log.result(1, 1, "call_inherited", s, "Error: spawn bash ENOENT", True)
    assert log.seq == 6
    log.add("step/end", {"turn": 1, "step": 1})
    log.add("turn/end", {"turn": 1, "reason": {"kind": "completed"}})
    log.add("turn/start", {"turn": 2})
    log.add("step/start", {"turn": 2, "step": 1})
    # Attempt 1: fails after its usage chunk; no message cites it.
    log.add("assistant/chunk", {"turn": 2, "step": 1, "chunk": {"type": "block-start", "index": 0, "blockType": "text"}})
    log.add("assistant/chunk", {"turn": 2, "step": 1, "chunk": {"type": "usage", "usage": usage(700, 4)}})
    log.add("assistant/chunk", {"turn": 2, "step": 1, "chunk": {"type": "finish", "reason": {"kind": "error"}}})
    # Attempt 2: a packed row (3 seqs), its usage chunk, cited as a range.
    first = log.add("assistant/chunk", {"turn": 2, "step": 1, "chunk": {"type": "block-start", "index": 0, "blockType": "text"}})
    log.packed("text-chunks", 2, 1, 0, ["Listing ", "the ", "files."])
    log.add("assistant/chunk", {"turn": 2, "step": 1, "chunk": {"type": "usage", "usage": usage(720, 30)}})
    last = log.add("assistant/chunk", {"turn": 2, "step": 1, "chunk": {"type": "finish", "reason": {"kind": "tool-calls"}}})
    log.message(2, 1, usage(720, 30), [("call_v1_1", "bash", ls)], cites=[[first, last]])
    s = log.call(2, 1, "call_v1_1", "bash", ls)
    log.result(2, 1, "call_v1_1", s, "out\n[stderr]\nerr\n[exit code: 2]", False)
    # A usage chunk after the message that nothing cites: settled at step/end.
    log.add("assistant/chunk", {"turn": 2, "step": 1, "chunk": {"type": "usage", "usage": usage(50, 2)}})
    log.add("step/end", {"turn": 2, "step": 1})
    log.add("step/start", {"turn": 2, "step": 2})
    c = log.add("assistant/chunk", {"turn": 2, "step": 2, "chunk": {"type": "usage", "usage": usage(300, 3)}})
    # A message without usage: its cited chunk's usage counts instead.
    log.message(2, 2, None, cites=[c])
    log.add("step/end", {"turn": 2, "step": 2})
    log.add("turn/end", {"turn": 2, "reason": {"kind": "completed"}})
    log.write("constructed-v1-seeded-retry/session.v1.jsonl")


def two_generations():
    cmd = pwsh("Set-Content -Path notes.txt -Value 'hello'")
    for version, name in ((0, "session.jsonl"), (2, "session.v2.jsonl")):
        header = {"type": "session", "version": version, "id": "constructed-two-gens",
                  "createdAt": 1768550000000, "cwd": "D:\\ws"}
        if version == 2:
            header["isSeeded"] = False
        header["delegationDepth"] = 0
        log = Log(header, 1768550000000)
        log.add("turn/start", {"turn": 1})
        log.add("step/start", {"turn": 1, "step": 1})
        if version == 0:
            c = log.add("assistant/chunk", {"turn": 1, "step": 1, "chunk": {"type": "usage", "usage": usage(1000, 10)}})
            log.message(1, 1, usage(1000, 10), [("call_gen_1", "pwsh", cmd)], cites=[c])
        else:
            log.message(1, 1, usage(1000, 10), [("call_gen_1", "pwsh", cmd)], stream=[
                chunk(log.time, {"type": "usage", "usage": usage(1000, 10)})])
        s = log.call(1, 1, "call_gen_1", "pwsh", cmd)
        log.result(1, 1, "call_gen_1", s, ACL.format("D:\\ws"), True)
        log.add("step/end", {"turn": 1, "step": 1})
        log.add("turn/end", {"turn": 1, "reason": {"kind": "completed"}})
        log.write("constructed-two-gens/" + name)


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    v2_acl()
    v3_acl()
    v3_subagent()
    v2_fork()
    v1_seeded_retry()
    two_generations()
