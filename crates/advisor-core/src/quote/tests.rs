//! `Untrusted` itself: what it keeps, what it remembers of a cut, and that a
//! cut text never reaches a command line.

use super::*;

/// `(input bytes, whether it must come back cut)`: the bound is 16 KiB, not
/// a near miss of it.
#[test]
fn text_is_kept_whole_up_to_its_bound_and_cut_at_a_character_boundary_past_it() {
    let check = |raw: String, cut: bool| {
        let kept = Untrusted::new(&raw);
        assert_eq!(kept.was_cut(), cut, "{} bytes", raw.len());
        if cut {
            assert!(kept.inspect().len() <= UNTRUSTED_MAX_BYTES);
            assert!(kept.inspect().len() > UNTRUSTED_MAX_BYTES - 4);
            assert!(raw.starts_with(kept.inspect()));
        } else {
            assert_eq!(kept.inspect(), raw);
        }
    };
    check(String::new(), false);
    check("C:\\ws".into(), false);
    check("a".repeat(2000), false);
    check("a".repeat(UNTRUSTED_MAX_BYTES), false);
    check("a".repeat(UNTRUSTED_MAX_BYTES + 1), true);
    // Three-byte characters straddle the bound: the cut lands before one.
    check("€".repeat(UNTRUSTED_MAX_BYTES), true);
}

#[test]
fn a_cut_text_refuses_every_command_rendering_and_a_whole_one_does_not() {
    let whole = Untrusted::new("C:\\ws");
    assert!(whole.powershell().is_ok());
    assert!(whole.powershell_input().is_ok());
    assert!(whole.cmd().is_ok());
    assert!(whole.command_path().is_ok());
    let mut long = String::from("C:\\");
    long.push_str(&"a".repeat(UNTRUSTED_MAX_BYTES));
    let cut = Untrusted::new(&long);
    assert!(matches!(cut.powershell(), Err(Refusal::TooLong)));
    assert!(matches!(cut.powershell_input(), Err(Refusal::TooLong)));
    assert!(matches!(cut.cmd(), Err(Refusal::TooLong)));
    assert!(matches!(cut.command_path(), Err(Refusal::TooLong)));
    // Every rendering's own bound is far below the cut today, so the cut is
    // refused on its own too: a rendering whose bound grows past 16 KiB must
    // still never carry a text whose end was dropped.
    assert!(matches!(cut.whole(), Err(Refusal::TooLong)));
    assert!(whole.whole().is_ok());
}

#[test]
fn debug_shows_the_text_escaped_and_named() {
    assert_eq!(
        format!("{:?}", Untrusted::new("a\"b\n")),
        "Untrusted(\"a\\\"b\\n\")"
    );
}
