//! A model of how a Windows program splits its command line into arguments
//! (CommandLineToArgvW, and the C runtime since 2008).

/// Splits `line` into arguments.
///
/// The program name (the first argument) ends at the first space or tab, or
/// at the closing quote when it starts with one, and backslashes in it are
/// literal. After it, arguments are separated by spaces and tabs outside
/// quotes; 2n backslashes before a `"` give n backslashes and the quote
/// toggles quoting, 2n+1 give n backslashes and a literal `"`; inside quotes
/// `""` gives a literal `"` and quoting goes on; other backslashes are literal.
pub fn split(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut args = Vec::new();
    let mut i = 0;
    let mut program = String::new();
    if chars.first() == Some(&'"') {
        i = 1;
        while i < chars.len() && chars[i] != '"' {
            program.push(chars[i]);
            i += 1;
        }
        i += 1;
    } else {
        while i < chars.len() && !is_blank(chars[i]) {
            program.push(chars[i]);
            i += 1;
        }
    }
    args.push(program);
    loop {
        while i < chars.len() && is_blank(chars[i]) {
            i += 1;
        }
        if i >= chars.len() {
            return args;
        }
        let mut arg = String::new();
        let mut quoted = false;
        while i < chars.len() && (quoted || !is_blank(chars[i])) {
            let backslashes = chars[i..].iter().take_while(|&&c| c == '\\').count();
            if backslashes > 0 {
                i += backslashes;
                if chars.get(i) == Some(&'"') {
                    arg.extend(std::iter::repeat_n('\\', backslashes / 2));
                    if backslashes % 2 == 1 {
                        arg.push('"');
                        i += 1;
                    }
                } else {
                    arg.extend(std::iter::repeat_n('\\', backslashes));
                }
                continue;
            }
            if chars[i] == '"' {
                if quoted && chars.get(i + 1) == Some(&'"') {
                    arg.push('"');
                    i += 2;
                } else {
                    quoted = !quoted;
                    i += 1;
                }
                continue;
            }
            arg.push(chars[i]);
            i += 1;
        }
        args.push(arg);
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

#[test]
fn the_argv_model_follows_the_documented_examples() {
    let cases: [(&str, &[&str]); 7] = [
        (r#"p "a b c" d e"#, &["p", "a b c", "d", "e"]),
        (r#"p "ab\"c" "\\" d"#, &["p", r#"ab"c"#, r"\", "d"]),
        (r#"p a\\\b d"e f"g h"#, &["p", r"a\\\b", "de fg", "h"]),
        (r#"p a\\\"b c d"#, &["p", r#"a\"b"#, "c", "d"]),
        (r#"p a\\\\"b c" d e"#, &["p", r"a\\b c", "d", "e"]),
        (r#"p "D:\" /T"#, &["p", r#"D:" /T"#]),
        (
            r#""C:\Program Files\x" "D:\\" /T"#,
            &[r"C:\Program Files\x", r"D:\", "/T"],
        ),
    ];
    for (line, want) in cases {
        assert_eq!(split(line), want, "{line}");
    }
}
