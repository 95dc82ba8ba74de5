//! Each runtime's words as Codex 0.171.0 delivered them
//! (`docs/hooks/codex/network-*`), and the look-alikes.

use super::*;

fn read(text: &str) -> Option<(Refusal, Runtime)> {
    last_lines(text)
        .or_else(|| node(text))
        .or_else(|| npm(text))
        .or_else(|| seatbelt(text))
        .map(|(r, p, _)| (r, p))
}

const PYTHON: &str = "Traceback (most recent call last):
  File \"<string>\", line 1, in <module>
  File \"/usr/lib/python3.11/socket.py\", line 232, in __init__
    _socket.socket.__init__(self, family, type, proto, fileno)
PermissionError: [Errno 1] Operation not permitted
";

const NODE_CONNECT: &str = "Error: connect EPERM 127.0.0.1:9 - Local (undefined:undefined)
    at internalConnect (node:net:1098:16)
    at process.processTicksAndRejections (node:internal/process/task_queues:77:11) {
  errno: -1,
  code: 'EPERM',
  syscall: 'connect',
  address: '127.0.0.1',
  port: 9
}
";

/// npm 10's words under Gemini CLI 0.61.0 (`docs/hooks/gemini-cli/npm-view`).
const NPM: &str = "npm error code EAI_AGAIN
npm error syscall getaddrinfo
npm error errno EAI_AGAIN
npm error request to https://registry.npmjs.org/is-number failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org
npm error Log files were not written due to an error writing to the directory: /run/home/.npm/_logs
npm error You can rerun the command with `--loglevel=verbose` to see the logs in your terminal
";

#[test]
fn each_runtime_in_its_class() {
    use {Refusal::*, Runtime::*};
    assert_eq!(read(PYTHON), Some((SocketCreation, Python)));
    let urlopen = format!(
        "{PYTHON}\nDuring handling of the above exception, another exception occurred:\n\n\
         Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n\
         urllib.error.URLError: <urlopen error [Errno 1] Operation not permitted>\n"
    );
    assert_eq!(read(&urlopen), Some((SocketCreation, Python)));
    assert_eq!(
        read("socket: Operation not permitted\nssh: connect to host 127.0.0.1 port 9: failure\n"),
        Some((SocketCreation, Ssh))
    );
    assert_eq!(read(NODE_CONNECT), Some((ConnectEperm, Node)));
    // docs/hooks/gemini-cli/python-connect: the shape alone (the mark is
    // required by `recognize`, see the fixtures).
    assert_eq!(
        read(
            "  File \"/usr/lib/python3.11/socket.py\", line 836, in create_connection\n    sock.connect(sa)\nConnectionRefusedError: [Errno 111] Connection refused\n"
        ),
        Some((ConnectRefused, Python))
    );
    assert_eq!(
        read(
            "--2026-12-07 01:15:41--  http://127.0.0.1:9/\nConnecting to 127.0.0.1:9... failed: Operation not permitted.\nGiving up.\n\n"
        ),
        Some((ConnectEperm, Wget))
    );
    assert_eq!(
        read("curl: (6) Could not resolve host: example.com\n"),
        Some((Unreachable, Curl))
    );
    assert_eq!(
        read(
            "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n"
        ),
        Some((Unreachable, Curl))
    );
    assert_eq!(
        read(
            "fatal: unable to access 'https://example.com/x.git/': Could not resolve host: example.com\n"
        ),
        Some((Unreachable, Git))
    );
    assert_eq!(
        read(
            "Error: getaddrinfo EAI_AGAIN example.com\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:111:26) {\n  errno: -3001,\n  code: 'EAI_AGAIN',\n}\n"
        ),
        Some((Unreachable, Node))
    );
    assert_eq!(
        read("socket.gaierror: [Errno -3] Temporary failure in name resolution\n"),
        Some((Unreachable, Python))
    );
    assert_eq!(read(NPM), Some((Unreachable, Npm)));
    // With its log written (docs/hooks/gemini-cli/control-npm-view).
    let logged = "npm error code EAI_AGAIN\nnpm error syscall getaddrinfo\nnpm error errno EAI_AGAIN\n\
        npm error request to https://registry.npmjs.org/is-number failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org\n\
        npm error A complete log of this run can be found in: /r/.npm/_logs/x-debug-0.log\n";
    assert_eq!(read(logged), Some((Unreachable, Npm)));
    assert_eq!(
        npm(NPM).map(|(_, _, line)| line),
        Some(
            "npm error request to https://registry.npmjs.org/is-number failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org"
        )
    );
    let block = "curl: (7) Failed to connect\n\n<sandbox_violations>\n\
                 curl(77) deny(1) network-outbound 93.184.215.14:443\n</sandbox_violations>\n";
    assert_eq!(read(block), Some((Refusal::Seatbelt, Runtime::Seatbelt)));
}

#[test]
fn the_same_words_elsewhere_are_not_read() {
    for text in [
        // Another errno at socket creation, or the error not from socket.py.
        &PYTHON.replace(
            "[Errno 1] Operation not permitted",
            "[Errno 97] Address family not supported by protocol",
        ),
        &PYTHON.replace("socket.py", "mysocket_wrapper.py"),
        &PYTHON.replace("_socket.socket.__init__", "os.chown"),
        "PermissionError: [Errno 1] Operation not permitted\n",
        // The words followed by more output, or inside a longer line.
        &format!("{PYTHON}retrying in 5s\n"),
        "[log] curl: (6) Could not resolve host: example.com",
        "socket: Operation not permitted\n",
        "ssh: connect to host h port 22: Connection refused\n",
        "curl: (28) Operation timed out after 1000 milliseconds\n",
        "urllib.error.URLError: <urlopen error [Errno 1] Operation not permitted>\n",
        // Node's error with something else between it and its trailer.
        &NODE_CONNECT.replace(
            "    at internalConnect",
            "reconnecting\n    at internalConnect",
        ),
        "Error: connect ECONNREFUSED 127.0.0.1:9\n    at f (x.js:1:1)\n",
        // Python's refused connection printed by anything but its connect.
        "ConnectionRefusedError: [Errno 111] Connection refused\n",
        "    print(e)\nConnectionRefusedError: [Errno 111] Connection refused\n",
        // npm's block followed by more output, not opened by its code, or
        // another code (a name the resolver answered does not exist).
        &format!("{NPM}fallback\n"),
        &NPM.replace("npm error code EAI_AGAIN\n", ""),
        &NPM.replace("code EAI_AGAIN", "code ENOTFOUND"),
        &NPM.replace("npm error request to", "npm error  request to"),
        "npm error code EAI_AGAIN\n",
        // A block that is not the runtime's.
        "<sandbox_violations>\ncurl(77) deny(1) network-outbound 1.2.3.4:443\n</sandbox_violations>\nmore\n",
        "<sandbox_violations>\nhello\ncurl(77) deny(1) network-outbound 1.2.3.4:443\n</sandbox_violations>\n",
    ] {
        assert_eq!(read(text), None, "{text}");
    }
}
