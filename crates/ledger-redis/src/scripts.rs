//! The Lua scripts: each request the store sends is one command with one
//! reply, so the read timeout bounds it (the redis crate's blocking client
//! reads every reply of a pipeline even after one timed out, so a pipeline of
//! N replies to a frozen server would take N timeouts). Each script touches
//! one agent's keys, which share a hash tag, so one cluster slot.
//!
//! Sent with `EVAL` (the text, a few hundred bytes) rather than `EVALSHA`:
//! one round trip always, even right after the server restarted with an
//! empty script cache; Redis caches the compiled script by its digest anyway.

use redis::{Cmd, ToRedisArgs};

/// `KEYS[1]` claim, `KEYS[2]` index; `ARGV[1]` ttl in ms. Takes the claim if
/// free (`SET NX PX`) and records it in the index, refreshing the index's
/// expiry. 1 when taken now, 0 when it was taken before.
pub(crate) const CLAIM: &str = r"
local first = redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1])
redis.call('SADD', KEYS[2], KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
if first then return 1 end
return 0
";

/// `KEYS[1]` budget; `ARGV[1]` `absent` or `held`, `ARGV[2]` the bytes read,
/// `ARGV[3]` the bytes to write, `ARGV[4]` ttl in ms. Writes only when the
/// record is still what the edit read (optimistic locking on the value: the
/// edit is a function of the record alone, so equal bytes mean an equal
/// answer). 1 when written, 0 when someone wrote in between.
pub(crate) const COMPARE_AND_SET: &str = r"
local now = redis.call('GET', KEYS[1])
if ARGV[1] == 'absent' then
  if now then return 0 end
elseif now ~= ARGV[2] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1
";

/// `KEYS[1]` budget; `ARGV[1]` the unreadable bytes read. Deletes the record
/// only if it still holds them. 1 when deleted.
pub(crate) const COMPARE_AND_DELETE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// `KEYS[1]` index, `KEYS[2]` budget, `KEYS[3]` an older build's budget
/// (codec version 1); `ARGV[1]` the start of the agent's claim keys. Deletes
/// the claim keys the index names (only those starting with `ARGV[1]`, so a
/// stray entry cannot reach another agent), the index and both budgets. The
/// number of keys deleted.
pub(crate) const FORGET: &str = r"
local n = 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if string.sub(key, 1, #ARGV[1]) == ARGV[1] then
    n = n + redis.call('DEL', key)
  end
end
return n + redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
";

/// `KEYS[1]` the fleet's digest key; `ARGV[1]` a fresh random key, or empty
/// to only read. Stores the proposal unless a key is there (no expiry). Nil
/// when none is stored; the stored key when it is 32 bytes long; else its
/// length, so a value of any size costs one small reply (a key of another
/// type is an error reply, `WRONGTYPE`).
pub(crate) const DIGEST_KEY: &str = r"
if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'NX') end
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local n = redis.call('STRLEN', KEYS[1])
if n ~= 32 then return n end
return redis.call('GET', KEYS[1])
";

/// `KEYS[1]` budget; `ARGV[1]` the most bytes a record can take. Nil when
/// absent; the record when it is no longer than that; else its length (one
/// small reply whatever the value's size).
pub(crate) const BUDGET_READ: &str = r"
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(ARGV[1]) then return n end
return redis.call('GET', KEYS[1])
";

/// `KEYS[1]` budget; `ARGV[1]` the most bytes a record can take. Deletes the
/// value, unread, only if it is still longer than that. 1 when deleted.
pub(crate) const DELETE_IF_LONGER: &str = r"
if redis.call('STRLEN', KEYS[1]) > tonumber(ARGV[1]) then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// `EVAL script <keys> <keys…> <args…>`.
pub(crate) fn eval<A: ToRedisArgs>(script: &str, keys: &[&str], args: A) -> Cmd {
    let mut cmd = redis::cmd("EVAL");
    cmd.arg(script).arg(keys.len()).arg(keys).arg(args);
    cmd
}
