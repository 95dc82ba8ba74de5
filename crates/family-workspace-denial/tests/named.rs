//! The path scanner (`NamedPaths`): which absolute paths a call's own
//! arguments name, which start no path, and which are rooted in a variable.

use family_workspace_denial::{MAX_PATHS, NamedPaths, Origin};

fn command(c: &str) -> Vec<String> {
    let mut named = NamedPaths::default();
    named.command(c);
    named
        .paths
        .into_iter()
        .map(|p| p.raw.inspect().to_owned())
        .collect()
}

#[test]
fn finds_bare_quoted_and_redirected_paths() {
    assert_eq!(
        command(r"Set-Content D:\ws\a.txt -Value x"),
        [r"D:\ws\a.txt"]
    );
    assert_eq!(command(r"echo ok >D:\ws\out.txt"), [r"D:\ws\out.txt"]);
    assert_eq!(command(r"echo ok >> D:/ws/log.txt;"), [r"D:/ws/log.txt"]);
    assert_eq!(
        command(r#"& "C:\Program Files (x86)\tool\t.exe" 'D:\ws\b c\d.txt'"#),
        [r"C:\Program Files (x86)\tool\t.exe", r"D:\ws\b c\d.txt"]
    );
    assert_eq!(
        command(r#"python -c "open(r'C:\other\x','w')""#),
        [r"C:\other\x"]
    );
    assert_eq!(
        command(r"Copy-Item D:\ws\a,D:\ws\b (D:\ws\c)"),
        [r"D:\ws\a", r"D:\ws\b", r"D:\ws\c"]
    );
    assert_eq!(
        command(r"tool --out=D:\ws\x -Path:D:\ws\y"),
        [r"D:\ws\x", r"D:\ws\y"]
    );
    assert_eq!(command(r"type \\server\share\x"), [r"\\server\share\x"]);
}

#[test]
fn a_drive_letter_after_a_word_byte_is_no_path_start() {
    // ASCII letters and digits, `_` and any byte of a non-ASCII character continue a word.
    assert!(command(r"echo abc:\x a1C:\x x_C:\x éC:\x ĀC:\x").is_empty());
    assert_eq!(command(r"echo -C:\x"), [r"C:\x"]);
    assert_eq!(command(r"echo .C:\x"), [r"C:\x"]);
}

#[test]
fn a_switch_is_no_unc_start_and_the_path_after_it_is_found() {
    // `/LOG:` begins with one separator, not two: the drive path inside the token counts.
    assert_eq!(
        command(r"robocopy D:\ws\a D:\ws\b /LOG:C:\logs\r.txt"),
        [r"D:\ws\a", r"D:\ws\b", r"C:\logs\r.txt"]
    );
    // Three separators are no UNC start either; the drive path after them still counts.
    assert_eq!(command(r"type \\\C:\x"), [r"C:\x"]);
    assert_eq!(command(r"type \\ C:\x"), [r"C:\x"]);
    // A UNC path right after `=` is a start (`--out=\\srv\share`).
    assert_eq!(command(r"tool --out=\\srv\share\x"), [r"\\srv\share\x"]);
}

#[test]
fn the_scan_goes_on_after_each_token() {
    let mut named = NamedPaths::default();
    named.command(r"cp $HOME/a D:\ws\b; type C:\x");
    assert!(named.opaque);
    let raws: Vec<&str> = named.paths.iter().map(|p| p.raw.inspect()).collect();
    assert_eq!(raws, [r"D:\ws\b", r"C:\x"]);
    assert_eq!(command(r"D:\ws\a|C:\b"), [r"D:\ws\a", r"C:\b"]);
    assert_eq!(command(r"D:\ws\a"), [r"D:\ws\a"]);
}

#[test]
fn an_argv_word_is_one_path_spaces_and_all() {
    let mut named = NamedPaths::default();
    named.word(r"C:\Program Files (x86)\tool\t.exe");
    named.word("--out");
    named.word(r"D:\ws\out dir\a.txt");
    let raws: Vec<&str> = named.paths.iter().map(|p| p.raw.inspect()).collect();
    assert_eq!(
        raws,
        [r"C:\Program Files (x86)\tool\t.exe", r"D:\ws\out dir\a.txt"]
    );
    assert!(named.paths.iter().all(|p| p.origin == Origin::Command));
}

#[test]
fn ignores_what_is_not_an_absolute_path() {
    assert!(command(r"echo x > build\out.txt").is_empty());
    assert!(command(r"echo x > D:out.txt").is_empty());
    assert!(command(r"dir /s \Windows\Temp").is_empty());
    assert!(command(r"curl https://example.com/a//b").is_empty());
    assert!(command(r"echo abc:\x").is_empty());
    assert!(command("").is_empty());
}

#[test]
fn a_quoted_script_is_scanned_path_by_path() {
    assert_eq!(
        command(r#"pwsh -Command "copy D:\ws\a C:\x""#),
        [r"D:\ws\a", r"C:\x"]
    );
    assert_eq!(command(r#"echo "unterminated D:\ws\a"#), [r"D:\ws\a"]);
}

fn opaque(c: &str) -> bool {
    let mut named = NamedPaths::default();
    named.command(c);
    named.opaque
}

#[test]
fn variable_rooted_paths_are_opaque() {
    assert!(opaque(
        r#"& "$env:ProgramFiles\nodejs\node.exe" D:\ws\b.js"#
    ));
    assert!(opaque(r"Copy-Item D:\ws\a ${env:USERPROFILE}/a"));
    assert!(opaque(r"copy D:\ws\a %ProgramFiles(x86)%\x"));
    assert!(opaque(r"cp D:/ws/a $HOME/a"));
    assert!(opaque(r"Set-Content ~\notes.txt x"));
    assert!(!opaque(
        r"$p = 'x'; Set-Content $p -Value 1; echo 100% done"
    ));
    assert!(!opaque(r"echo a~b\c"));
    // A sigil with no name after it, or a `%name%` not followed by a separator, is no variable.
    assert!(!opaque(r"echo costs $/month"));
    assert!(!opaque(r"echo 100 %/x"));
    assert!(!opaque(r"copy a.txt %DATE%.txt"));
    assert!(!opaque(r"echo %NAME\\x"));
    assert!(!opaque(r"echo a$HOME\x b%TEMP%\x"));
    let mut named = NamedPaths::default();
    named.argument(r"%USERPROFILE%\proj");
    assert!(named.opaque);
}

#[test]
fn the_count_is_bounded() {
    let many = (0..40).map(|i| format!(r"D:\ws\f{i}")).collect::<Vec<_>>();
    let mut named = NamedPaths::default();
    named.command(&many.join(" "));
    assert_eq!(named.paths.len(), MAX_PATHS);
    assert!(named.overflow);
}

#[test]
fn marks_components_windows_would_rewrite() {
    let mut named = NamedPaths::default();
    named.command(r#"echo > "D:\ws\.. \other\x" D:\ws\ok\..\y"#);
    let flags: Vec<bool> = named.paths.iter().map(|p| p.ambiguous).collect();
    assert_eq!(flags, [true, false]);
}

#[test]
fn arguments_count_only_as_whole_values() {
    let mut named = NamedPaths::default();
    named.argument(r"D:\ws");
    named.argument(r"write the report to C:\x");
    named.argument(r"D:\ws\a;C:\x");
    let raws: Vec<&str> = named.paths.iter().map(|p| p.raw.inspect()).collect();
    assert_eq!(raws, [r"D:\ws", r"D:\ws\a", r"C:\x"]);
    assert!(named.paths.iter().all(|p| p.origin == Origin::Argument));
}
