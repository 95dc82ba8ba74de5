//! The brief: the text the model receives (issue 15). It reads top to bottom:
//!
//! 1. what failed, and that retrying cannot help;
//! 2. the producer's line, quoted verbatim;
//! 3. the cause and the read-only check that confirms it;
//! 4. the remedy, forked on who owns the directory;
//! 5. what not to do, one line each, never relaxing the sandbox mode last;
//! 6. where the full account is ([`full_account`]).
//!
//! A code other than 5 keeps its own shape: the code's own check, no cause,
//! no grant, none of the access-denied material. The structure is built once
//! here; the sentences come from [`words`], one set per locale. Every command
//! line comes from the builders the full account uses ([`commands`]).

mod words;

use std::fmt::Write as _;

use advisor_core::brief::{ExplainInput, full_account};
use advisor_core::{Environment, Locale};

use crate::facts::{Dir, commands, in_user_profile};
use crate::finding::{AclClass, AclFinding};
use words::Words;

/// The brief for a recognized finding, in the environment's locale.
pub(crate) fn brief(finding: &AclFinding, dir: &Dir, env: &Environment) -> String {
    let w = words::of(env.locale);
    let class = finding.class();
    let code = finding.code.to_string();
    let fill = |template: &str| template.replace("{code}", &code);
    let mut out = String::with_capacity(3 * 1024);

    // 1. What failed, and whether retrying can help.
    let (headline, retry) = match class {
        AclClass::ApplyDenied => (w.headline_apply_denied, w.retry_denied),
        AclClass::ApplyOther => (w.headline_apply_other, w.retry_other),
        AclClass::ReadDenied => (w.headline_read, w.retry_denied),
        AclClass::ReadOther => (w.headline_read, w.retry_other),
    };
    let _ = write!(out, "{}{}{}\n\n", fill(headline), w.sentence_gap, retry);

    // 2. The evidence.
    let _ = writeln!(out, "{}", w.reported);
    let _ = write!(out, "{}\n\n", finding.line().quote_block());

    // 3. The cause (code 5 only) and the check.
    match class {
        AclClass::ApplyDenied => para(&mut out, w.cause_apply),
        AclClass::ReadDenied => para(&mut out, w.cause_read),
        AclClass::ApplyOther | AclClass::ReadOther => para(&mut out, &fill(w.other_meaning)),
    }
    placeholder(&mut out, finding, dir, w);
    if class.is_access_denied() {
        let _ = writeln!(out, "{}", w.check);
        commands::list(&dir.slot).write(&mut out, "    ");
        let _ = writeln!(out, "    PowerShell: {}", commands::owner(&dir.slot));
        if class == AclClass::ReadDenied {
            let _ = writeln!(out, "    {}", commands::helpmsg(finding.code));
        }
        out.push('\n');
        remedy(&mut out, finding, dir, w);
        donts(
            &mut out,
            &[w.dont_takeown, w.dont_reset, w.dont_downgrade, w.dont_relax],
            w,
        );
    } else {
        let _ = writeln!(out, "{}", w.other_check);
        let _ = writeln!(out, "    {}", commands::helpmsg(finding.code));
        commands::list(&dir.slot).write(&mut out, "    ");
        out.push('\n');
        para(&mut out, w.other_remedy);
        donts(&mut out, &[w.other_dont_repairs, w.dont_relax], w);
    }

    // 6. Where the full account is.
    out.push_str(&full_account(env, ExplainInput::Message(finding.line())));
    out
}

/// The one-line summary, in the locale.
pub(crate) fn summary(finding: &AclFinding, locale: Locale) -> String {
    let w = words::of(locale);
    let template = match finding.class() {
        AclClass::ApplyDenied => w.summary_apply_denied,
        AclClass::ApplyOther => w.summary_apply_other,
        AclClass::ReadDenied => w.summary_read_denied,
        AclClass::ReadOther => w.summary_read_other,
    };
    template.replace("{code}", &finding.code.to_string())
}

/// Appends one paragraph (a blank line follows it).
fn para(out: &mut String, text: &str) {
    out.push_str(text);
    out.push_str("\n\n");
}

/// Why `<dir>` stands in on the command lines, or which normalized form of
/// the directory they use; nothing when the path is placed as written.
fn placeholder(out: &mut String, finding: &AclFinding, dir: &Dir, w: &Words) {
    let normal = dir.slot.path();
    match (finding.path(), dir.slot.refusal(), normal) {
        (None, _, _) => para(
            out,
            &format!("{}{}{}", w.no_detail, w.sentence_gap, w.placeholder_quotes),
        ),
        (Some(_), Some(why), _) => {
            let sentence = w
                .refused
                .template
                .replace("{why}", &(w.refused.reason)(why));
            para(
                out,
                &format!("{sentence}{}{}", w.sentence_gap, w.placeholder_quotes),
            );
        }
        (Some(path), None, Some(normal)) if normal.as_str() != path.inspect() => {
            para(out, &w.normalized.replace("{path}", normal.as_str()));
        }
        _ => {}
    }
}

/// The remedy for the code-5 classes, forked on ownership. Moving the
/// workspace under %USERPROFILE% is offered only when it is not there already.
fn remedy(out: &mut String, finding: &AclFinding, dir: &Dir, w: &Words) {
    let _ = writeln!(out, "{}", w.remedy_owner);
    commands::grant_write_owner(&dir.slot).write(out, "    ");
    let _ = writeln!(out, "{}", w.remedy_not_owner);
    commands::grant_full(&dir.slot).write(out, "    ");
    let _ = writeln!(out, "{}", w.remedy_set_owner);
    commands::set_owner(&dir.slot).write(out, "    ");
    if finding.path().is_some_and(in_user_profile) {
        para(out, w.remedy_each_root);
    } else {
        let gap = w.sentence_gap;
        para(
            out,
            &format!("{}{gap}{}", w.remedy_elsewhere, w.remedy_each_root),
        );
    }
}

/// What not to do, one line each.
fn donts(out: &mut String, lines: &[&str], w: &Words) {
    let _ = writeln!(out, "{}", w.donts);
    for line in lines {
        let _ = writeln!(out, "- {line}");
    }
    out.push('\n');
}
