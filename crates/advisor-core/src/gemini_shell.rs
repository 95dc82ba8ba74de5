//! The line Gemini CLI's shell wrapper adds to a command's output.
//!
//! Gemini CLI 0.61.0 runs each `run_shell_command` through a wrapper that
//! records background process ids in `<tmp>/gemini-shell-XXXXXX/bgpids.tmp`;
//! under its Linux tool sandbox that file cannot be written, and the shell
//! says so on the output's last line, after whatever the command printed
//! (`docs/hooks/gemini-cli/`, every recording). The line is the wrapper's,
//! not the command's: the hook and `scan` both take it out before any family
//! reads the output, so a success that carries it stays a success.

/// The end of the wrapper's noise line.
pub const NOISE_TAIL: &str = "/bgpids.tmp: No such file or directory";
/// The wrapper's temp directory's name, before its six random characters.
const NOISE_DIR: &str = "/gemini-shell-";

/// `output` without the wrapper's noise line when that is its last line
/// (trailing newlines, carriage returns and spaces aside); else `output`.
pub fn without_noise(output: &str) -> &str {
    let trimmed = output.trim_end_matches(['\n', '\r', ' ']);
    let (head, last) = match trimmed.rsplit_once('\n') {
        Some((head, last)) => (head, last),
        None => ("", trimmed),
    };
    if is_noise(last) { head } else { output }
}

/// True for exactly the wrapper's line:
/// `<shell>: line <n>: <tmp>/gemini-shell-XXXXXX/bgpids.tmp: No such file or directory`,
/// the shell an absolute path to `bash` or `sh`, the temp directory absolute.
pub fn is_noise(line: &str) -> bool {
    let Some(head) = line.strip_suffix(NOISE_TAIL) else {
        return false;
    };
    let Some((shell, rest)) = head.split_once(": line ") else {
        return false;
    };
    let shell_ok = shell.starts_with('/')
        && !shell.contains(char::is_whitespace)
        && matches!(shell.rsplit('/').next(), Some("bash" | "sh"));
    let Some((number, dir)) = rest.split_once(": ") else {
        return false;
    };
    let number_ok = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    let Some((parent, name)) = dir.rsplit_once(NOISE_DIR) else {
        return false;
    };
    let dir_ok = parent.starts_with('/')
        && !parent.contains(char::is_whitespace)
        && name.len() == 6
        && name.bytes().all(|b| b.is_ascii_alphanumeric());
    shell_ok && number_ok && dir_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOISE: &str =
        "/usr/bin/bash: line 1: /tmp/gemini-shell-DmoCw0/bgpids.tmp: No such file or directory";

    #[test]
    fn only_the_wrappers_exact_line_is_noise() {
        assert!(is_noise(NOISE));
        assert!(is_noise(
            "/bin/sh: line 12: /var/tmp/x/gemini-shell-abcDEF/bgpids.tmp: No such file or directory"
        ));
        for line in [
            "bash: line 1: /tmp/gemini-shell-DmoCw0/bgpids.tmp: No such file or directory",
            "/usr/bin/zsh: line 1: /tmp/gemini-shell-DmoCw0/bgpids.tmp: No such file or directory",
            "/usr/bin/bash: line x: /tmp/gemini-shell-DmoCw0/bgpids.tmp: No such file or directory",
            "/usr/bin/bash: line 1: /tmp/gemini-shell-DmoCw/bgpids.tmp: No such file or directory",
            "/usr/bin/bash: line 1: tmp/gemini-shell-DmoCw0/bgpids.tmp: No such file or directory",
            "/usr/bin/bash: line 1: /tmp/gemini-shell-DmoCw0/bgpids.tmp: Permission denied",
            "/usr/bin/bash: line 1: /tmp/gemini shell-DmoCw0/bgpids.tmp: No such file or directory",
        ] {
            assert!(!is_noise(line), "{line}");
        }
        // Only as the last line.
        let middle = format!("a\n{NOISE}\nb");
        assert_eq!(without_noise(&middle), middle);
        assert_eq!(without_noise(&format!("a\n{NOISE}\n")), "a");
        assert_eq!(without_noise(&format!("a\n{NOISE}\r\n  ")), "a");
        assert_eq!(without_noise(NOISE), "");
        assert_eq!(without_noise("a\nb\n"), "a\nb\n");
    }
}
