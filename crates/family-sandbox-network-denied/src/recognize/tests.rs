use super::*;

const CURL: &str = "Exit code 56\ncurl: (56) CONNECT tunnel failed, response 403\n\n\
                    <sandbox_violations>\n\
                    deny network-outbound example.com:443 (user denied)\n\
                    </sandbox_violations>";

fn hosts(text: &str) -> Option<Vec<String>> {
    read(text, Carrier::Failure).map(|f| {
        f.denials
            .iter()
            .map(|d| d.target.inspect().to_owned())
            .collect()
    })
}

fn wrap(lines: &str) -> String {
    format!("out\n{OPEN_TAG}\n{lines}\n{CLOSE_TAG}")
}

#[test]
fn the_recorded_curl_block() {
    let f = read(CURL, Carrier::Failure).unwrap();
    assert_eq!(f.attempts, 1);
    assert_eq!(f.other_lines, 0);
    assert!(!f.more_hosts);
    let d = &f.denials[0];
    assert_eq!(
        (d.host.inspect(), d.port, d.reason.inspect()),
        ("example.com", 443, "user denied")
    );
    assert_eq!(
        d.line.inspect(),
        "deny network-outbound example.com:443 (user denied)"
    );
}

#[test]
fn the_block_is_measured_from_its_opening_tag_to_the_end() {
    let f = read(CURL, Carrier::Failure).unwrap();
    let tag = CURL.find(OPEN_TAG).unwrap();
    assert_eq!(f.block_bytes, CURL.len() - tag);
    // Trailing whitespace after the closing tag is the block's too.
    let padded = format!("{CURL}\n  \n");
    assert_eq!(
        read(&padded, Carrier::Failure).unwrap().block_bytes,
        padded.len() - tag
    );
    // A block alone is the whole text.
    let alone = &CURL[tag..];
    assert_eq!(
        read(alone, Carrier::Success).unwrap().block_bytes,
        alone.len()
    );
}

#[test]
fn each_host_once_in_the_order_first_seen() {
    let npm = "deny network-outbound registry.npm.example:443 (user denied)";
    let other = "deny network-outbound example.com:80 (user denied)";
    let text = wrap(
        &[
            npm,
            npm,
            other,
            npm,
            "deny network-outbound REGISTRY.npm.example:443 (x)",
        ]
        .join("\n"),
    );
    let f = read(&text, Carrier::Failure).unwrap();
    assert_eq!(f.attempts, 5);
    assert_eq!(
        hosts(&text).unwrap(),
        ["registry.npm.example:443", "example.com:80"]
    );
    // The same host on another port is another refusal.
    let ports = wrap(
        &[
            npm,
            "deny network-outbound registry.npm.example:80 (user denied)",
        ]
        .join("\n"),
    );
    assert_eq!(hosts(&ports).unwrap().len(), 2);
}

#[test]
fn at_most_max_hosts_are_kept() {
    let lines: Vec<String> = (0..MAX_HOSTS + 3)
        .map(|i| format!("deny network-outbound h{i}.example:443 (user denied)"))
        .collect();
    let f = read(&wrap(&lines.join("\n")), Carrier::Failure).unwrap();
    assert_eq!(f.denials.len(), MAX_HOSTS);
    assert!(f.more_hosts);
    assert_eq!(f.attempts, MAX_HOSTS + 3);
    // Repeats of kept hosts beyond the cap are not "more".
    let mut repeats: Vec<String> = lines[..MAX_HOSTS].to_vec();
    repeats.extend(lines[..3].iter().cloned());
    let f = read(&wrap(&repeats.join("\n")), Carrier::Failure).unwrap();
    assert!(!f.more_hosts);
}

#[test]
fn the_block_must_close_the_text() {
    assert!(hosts(&format!("{CURL}\n  \n")).is_some());
    assert!(hosts(&format!("{CURL}\r\n")).is_some());
    for text in [
        format!("{CURL}\nmore text"),
        format!("{CURL} trailing"),
        format!("{CURL}\n{CLOSE_TAG}x"),
        format!("cat notes.md\n{CURL}\n## next section"),
    ] {
        assert_eq!(hosts(&text), None, "{text:?}");
    }
}

#[test]
fn both_tags_stand_on_lines_of_their_own() {
    let line = "deny network-outbound example.com:443 (user denied)";
    for text in [
        // no closing tag
        format!("x\n{OPEN_TAG}\n{line}"),
        format!("x\n{OPEN_TAG}\n{line}\n"),
        // no opening tag
        format!("x\n{line}\n{CLOSE_TAG}"),
        // closing tag at the end of a line
        format!("x\n{OPEN_TAG}\n{line}{CLOSE_TAG}"),
        // opening tag inside a longer line
        format!("x\nlog: {OPEN_TAG}\n{line}\n{CLOSE_TAG}"),
        format!("x\n{OPEN_TAG} \n{line}\n{CLOSE_TAG}"),
        // a nested block
        format!("{OPEN_TAG}\n{OPEN_TAG}\n{line}\n{CLOSE_TAG}\n{CLOSE_TAG}"),
    ] {
        assert_eq!(hosts(&text), None, "{text:?}");
    }
    // The opening tag may begin the text (a success with empty stdout).
    assert!(hosts(&format!("{OPEN_TAG}\n{line}\n{CLOSE_TAG}")).is_some());
    assert!(hosts(&format!("\n{OPEN_TAG}\n{line}\n{CLOSE_TAG}")).is_some());
    assert!(hosts(&format!("x\r\n{OPEN_TAG}\r\n{line}\r\n{CLOSE_TAG}")).is_some());
}

#[test]
fn a_block_without_a_network_line_is_not_this() {
    assert_eq!(hosts(&format!("x\n{OPEN_TAG}\n{CLOSE_TAG}")), None);
    assert_eq!(hosts(&wrap("deny openat /etc/x")), None);
    assert_eq!(hosts(&wrap("")), None);
}

#[test]
fn other_violations_are_set_aside() {
    let text = wrap("deny openat /etc/x\ndeny network-outbound example.com:443 (user denied)");
    let f = read(&text, Carrier::Failure).unwrap();
    assert_eq!((f.attempts, f.other_lines, f.denials.len()), (1, 1, 1));
}

#[test]
fn malformed_lines_refuse_the_block() {
    for bad in [
        "deny network-outbound example.com (user denied)",
        "deny network-outbound example.com:443",
        "deny network-outbound example.com:443 user denied",
        "deny network-outbound example.com:443 (user denied) extra",
        "deny network-outbound :443 (user denied)",
        "deny network-outbound example.com:0 (user denied)",
        "deny network-outbound example.com:0443 (user denied)",
        "deny network-outbound example.com:65536 (user denied)",
        "deny network-outbound example.com:+443 (user denied)",
        "deny network-outbound example.com:443(user denied)",
        "deny network-outbound  (user denied)",
        "deny network-outbound exa\u{7}mple.com:443 (user denied)",
        "deny network-outbound <b>.com:443 (user denied)",
        "deny ",
        "allow network-outbound example.com:443 (ok)",
        "some text",
        "",
    ] {
        let text = wrap(&format!(
            "deny network-outbound example.com:443 (user denied)\n{bad}"
        ));
        assert_eq!(hosts(&text), None, "{bad:?}");
    }
    let long_reason = "r".repeat(MAX_REASON_CHARS + 1);
    let text = wrap(&format!(
        "deny network-outbound example.com:443 ({long_reason})"
    ));
    assert_eq!(hosts(&text), None);
    let long_host = "h".repeat(MAX_HOST_BYTES + 1);
    assert_eq!(
        hosts(&wrap(&format!("deny network-outbound {long_host}:443 (x)"))),
        None
    );
    // The edges that are the producer's.
    assert!(hosts(&wrap("deny network-outbound example.com:65535 ()")).is_some());
    assert!(hosts(&wrap("deny network-outbound [::1]:443 (blocked (policy))")).is_some());
}

#[test]
fn the_scan_is_bounded() {
    let line = "deny network-outbound example.com:443 (user denied)";
    let at_limit = vec![line; MAX_BLOCK_LINES].join("\n");
    assert!(hosts(&wrap(&at_limit)).is_some());
    let over = vec![line; MAX_BLOCK_LINES + 1].join("\n");
    assert_eq!(hosts(&wrap(&over)), None);
    let huge = format!("x{}", "y".repeat(4 * MAX_LINE_BYTES));
    assert_eq!(hosts(&wrap(&huge)), None);
    assert_eq!(hosts(&format!("{huge}{CLOSE_TAG}")), None);
}

#[test]
fn both_carriers_and_the_empty_message() {
    use advisor_core::{AgentId, CallId, Failure, Success, ToolName};
    let observation = |outcome| Observation {
        agent: AgentId::from("a"),
        session: None,
        call: CallId::from("c"),
        tool: ToolName::from("Bash"),
        arguments: serde_json::Value::Null,
        outcome,
    };
    let failed = observation(Outcome::Failure(Failure {
        message: CURL.to_owned(),
        content: format!("Error: {CURL}"),
        ..Failure::default()
    }));
    assert_eq!(recognize(&failed).unwrap().carrier, Carrier::Failure);
    let content_only = observation(Outcome::Failure(Failure {
        message: String::new(),
        content: format!("Error: {CURL}"),
        ..Failure::default()
    }));
    assert!(recognize(&content_only).is_some());
    let succeeded = observation(Outcome::Success(Success {
        value: serde_json::Value::Null,
        content: CURL.to_owned(),
    }));
    assert_eq!(recognize(&succeeded).unwrap().carrier, Carrier::Success);
}
