//! The edge where argv becomes a [`Cli`]: arguments that are not UTF-8,
//! clap's errors rewritten as one `pubmed: error:` line and a hint (or the
//! JSON error object when a JSON format was asked for, however `--format`
//! was spelled), and `--spell apply` written with a space.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, CommandFactory, FromArgMatches};

use super::args::Cli;
use crate::core::choice::Choice;
use crate::error::{Exit, Reason};
use crate::ops::search::SpellMode;
use crate::output::Format;

/// Parses `args` (with the binary name first). On a usage error, prints it
/// and returns the exit status: 0 for `--help`/`--version` (printed on
/// stdout), 2 otherwise.
pub fn parse(args: &[OsString]) -> Result<Cli, Exit> {
    if let Some(message) = non_utf8_argument(args) {
        let hint = "pass arguments as UTF-8 text (pubmed does not print the argument)";
        print(&message, hint, json_requested(args));
        return Err(Exit::Usage);
    }
    let matches = match super::command().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return Err(clap_error(&e, args)),
    };
    if let Some((message, hint)) = spell_mode_as_query_word(&matches) {
        print(&message, &hint, json_requested(args));
        return Err(Exit::Usage);
    }
    Cli::from_arg_matches(&matches).map_err(|e| clap_error(&e, args))
}

fn clap_error(e: &clap::Error, args: &[OsString]) -> Exit {
    if !e.use_stderr() {
        // --help and --version go to stdout; a failed write is exit 74 like
        // any output (a closed pipe is 0).
        use std::io::Write;
        let text = e.render().to_string();
        let mut out = std::io::stdout().lock();
        return match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => Exit::Success,
            Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Exit::Success,
            Err(err) => {
                crate::diag!("pubmed: error: cannot write the output: {err}");
                crate::diag!("pubmed: hint: check the disk or the file that stdout goes to");
                Exit::Output
            }
        };
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // `pubmed` or `pubmed config` alone: the help, on stderr, exit 2.
        let _ = e.print();
        return Exit::Usage;
    }
    let (message, hint) = rewrite(e);
    print(&message, &hint, json_requested(args));
    Exit::Usage
}

/// One usage error on stderr in the shape of every other error
/// (docs/errors.md): `pubmed: error: MESSAGE [invalid_argument]` and
/// `pubmed: hint: HINT`, or the JSON error object.
fn print(message: &str, hint: &str, json: bool) {
    let reason = Reason::InvalidArgument.as_str();
    if json {
        let v = serde_json::json!({"error": {"reason": reason, "message": message, "retryable": false, "hint": hint}});
        crate::diag!("{v}");
    } else {
        crate::diag!("pubmed: error: {message} [{reason}]");
        crate::diag!("pubmed: hint: {hint}");
    }
}

/// clap's rendered error as a message (its first paragraph: clap lists
/// missing arguments on the lines after "error: …") and a hint (clap's
/// tips, joined by `; ` when it gives more than one; else the usage line).
fn rewrite(e: &clap::Error) -> (String, String) {
    let rendered = e.render().to_string();
    let paragraph: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .collect();
    let first = paragraph.join(" ");
    let message = match first.strip_prefix("error: ") {
        Some(m) => m.to_string(),
        None if first.is_empty() => "invalid arguments".to_string(),
        None => first.clone(),
    };
    let tips: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("tip: "))
        .collect();
    let hint = Some(tips.join("; "))
        .filter(|t| !t.is_empty())
        .or_else(|| {
            rendered
                .lines()
                .map(str::trim)
                .find_map(|l| l.strip_prefix("Usage: "))
                .map(|u| format!("usage: {u} (see --help)"))
        })
        .unwrap_or_else(|| "see `pubmed --help`".to_string());
    (message, hint)
}

/// The first argument that is not UTF-8, named by its position and the
/// option it belongs to; never the argument itself (it may be a key).
fn non_utf8_argument(args: &[OsString]) -> Option<String> {
    let i = args.iter().skip(1).position(|a| a.to_str().is_none())? + 1;
    let bytes = args[i].as_encoded_bytes();
    let option = |name: &[u8]| std::str::from_utf8(name).ok().map(str::to_string);
    let what = if bytes.starts_with(b"--") {
        match bytes.iter().position(|b| *b == b'=') {
            Some(eq) => option(&bytes[..eq]).map(|n| format!("the value of {n}")),
            None => Some("an option name".to_string()),
        }
    } else if bytes.len() > 1 && bytes[0] == b'-' {
        option(&bytes[..2]).map(|n| format!("the value of {n} or an option name"))
    } else {
        args[i - 1]
            .to_str()
            .filter(|prev| takes_value(prev))
            .map(|prev| format!("the value of {prev}"))
    };
    Some(match what {
        Some(w) => format!("argument {i} ({w}) is not valid UTF-8"),
        None => format!("argument {i} is not valid UTF-8"),
    })
}

/// True when `flag` (`--api-key`, `-f`) is an option of the CLI that takes
/// a value, in any subcommand.
fn takes_value(flag: &str) -> bool {
    fn walk(cmd: &clap::Command, flag: &str) -> bool {
        cmd.get_arguments().any(|a| {
            let named = match flag.strip_prefix("--") {
                Some(long) => a.get_long() == Some(long),
                None => {
                    let mut c = flag.chars().skip(1);
                    matches!((c.next(), c.next()), (Some(s), None) if a.get_short() == Some(s))
                }
            };
            named && a.get_action().takes_values()
        }) || cmd.get_subcommands().any(|s| walk(s, flag))
    }
    flag.starts_with('-') && walk(&super::command(), flag)
}

/// True when the arguments ask for a JSON format (`json`, `ndjson`), under
/// any spelling clap accepts: `-f json`, `-fjson`, `-f=json`,
/// `--format json`, `--format=json`, in any case.
///
/// The arguments are read again by clap, with a command that knows only
/// the global options (and takes anything else as a word); the options
/// that command does not know are dropped one at a time, as clap names
/// them, so a `--format` after the bad argument is still found.
fn json_requested(args: &[OsString]) -> bool {
    let mut cmd = clap::Command::new("pubmed")
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args_override_self(true)
        .arg(
            Arg::new("words")
                .action(ArgAction::Append)
                .value_parser(clap::value_parser!(OsString)),
        );
    for a in Cli::command().get_arguments().filter(|a| a.is_global_set()) {
        cmd = cmd.arg(a.clone().global(false));
    }
    // Arguments that are not UTF-8 are words here: only their place counts.
    let mut args: Vec<OsString> = args
        .iter()
        .map(|a| match a.to_str() {
            Some(_) => a.clone(),
            None => OsString::from("?"),
        })
        .collect();
    let format = |m: &clap::ArgMatches| m.get_one::<Format>("format").copied();
    for _ in 0..16 {
        let e = match cmd.clone().try_get_matches_from(&args) {
            Ok(m) => return format(&m).is_some_and(Format::is_json),
            Err(e) => e,
        };
        let unknown = match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(s)) if e.kind() == ErrorKind::UnknownArgument => s.clone(),
            _ => break,
        };
        let Some(at) = args.iter().skip(1).position(|a| {
            a.to_str()
                .is_some_and(|a| a == unknown || a.starts_with(&format!("{unknown}=")))
        }) else {
            break;
        };
        args.remove(at + 1);
    }
    cmd.ignore_errors(true)
        .try_get_matches_from(&args)
        .ok()
        .and_then(|m| format(&m))
        .is_some_and(Format::is_json)
}

/// `--spell apply` (with a space): clap reads `--spell` alone as
/// `--spell=suggest` and `apply` as a query word. The word right after the
/// flag is a mode name only when the user meant the mode, so it is a usage
/// error that says how to write it.
fn spell_mode_as_query_word(matches: &clap::ArgMatches) -> Option<(String, String)> {
    let (name, sub) = matches.subcommand()?;
    if name != "search" {
        return None;
    }
    let mode = sub.get_one::<SpellMode>("spell")?;
    let at = sub.index_of("spell")?;
    let words: Vec<(usize, &String)> = sub
        .indices_of("query")?
        .zip(sub.get_many::<String>("query")?)
        .collect();
    let (_, word) = words.iter().find(|(i, _)| *i == at + 1)?;
    let meant = SpellMode::parse(word)?;
    (*mode == SpellMode::Suggest).then(|| {
        (
            format!(
                "`--spell {word}` reads {word:?} as a query word; --spell takes its mode after `=`"
            ),
            format!(
                "write --spell={} (or put the query before --spell)",
                meant.as_str()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn json_is_found_under_every_spelling_and_place() {
        for args in [
            &["pubmed", "-fjson", "search", "x", "--bogus"][..],
            &["pubmed", "-f=json", "search", "x", "--bogus"],
            &["pubmed", "--format=json", "search", "x", "--bogus"],
            &["pubmed", "--format", "json", "search", "x", "--bogus"],
            &["pubmed", "-f", "json", "search", "x", "--bogus"],
            &["pubmed", "search", "x", "--bogus", "-f", "json"],
            &["pubmed", "search", "x", "--bogus=3", "-fNDJSON"],
            &["pubmed", "search", "x", "--retmax", "lots", "--format=JSON"],
            &["pubmed", "-qfjson", "search", "x", "--bogus"],
        ] {
            assert!(json_requested(&os(args)), "{args:?}");
        }
        for args in [
            &["pubmed", "search", "x", "--bogus"][..],
            &["pubmed", "-f", "csv", "search", "x", "--bogus"],
            &["pubmed", "-f", "jsn", "search", "x"],
            &["pubmed", "spell", "--", "-f", "json"],
        ] {
            assert!(!json_requested(&os(args)), "{args:?}");
        }
    }

    #[test]
    #[cfg(unix)]
    fn a_non_utf8_argument_is_named_by_place_not_printed() {
        use std::os::unix::ffi::OsStringExt;
        let bad = || OsString::from_vec(b"secret\xff".to_vec());
        let mut args = os(&["pubmed", "spell"]);
        args.push(bad());
        assert_eq!(
            non_utf8_argument(&args).unwrap(),
            "argument 2 is not valid UTF-8"
        );
        let mut args = os(&["pubmed", "--api-key"]);
        args.push(bad());
        args.extend(os(&["spell", "x"]));
        assert_eq!(
            non_utf8_argument(&args).unwrap(),
            "argument 2 (the value of --api-key) is not valid UTF-8"
        );
        let mut args = os(&["pubmed", "search", "x"]);
        args.push(OsString::from_vec(b"--author=\xff".to_vec()));
        assert_eq!(
            non_utf8_argument(&args).unwrap(),
            "argument 3 (the value of --author) is not valid UTF-8"
        );
        assert_eq!(non_utf8_argument(&os(&["pubmed", "spell", "ok"])), None);
    }

    #[test]
    fn spell_apply_with_a_space_is_caught() {
        let m = Cli::command()
            .try_get_matches_from(["pubmed", "search", "--spell", "apply", "alzhiemer"])
            .unwrap();
        let (message, hint) = spell_mode_as_query_word(&m).unwrap();
        assert!(message.contains("`--spell apply`"), "{message}");
        assert_eq!(
            hint,
            "write --spell=apply (or put the query before --spell)"
        );
        for ok in [
            &["pubmed", "search", "--spell=apply", "alzhiemer"][..],
            &["pubmed", "search", "apply", "--spell"],
            &["pubmed", "search", "--spell", "alzhiemer", "apply"],
        ] {
            let m = Cli::command().try_get_matches_from(ok).unwrap();
            assert_eq!(spell_mode_as_query_word(&m), None, "{ok:?}");
        }
    }

    #[test]
    fn every_tip_of_clap_is_kept_in_the_hint() {
        // clap can give a did-you-mean tip and a `--` tip for one unknown
        // argument; both reach the hint, in clap's order.
        let mut e = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(&Cli::command());
        e.insert(
            ContextKind::InvalidArg,
            ContextValue::String("--sortt".into()),
        );
        e.insert(
            ContextKind::SuggestedArg,
            ContextValue::String("--sort".into()),
        );
        e.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec![
                "to pass '--sortt' as a value, use '-- --sortt'".into(),
            ]),
        );
        let (message, hint) = rewrite(&e);
        assert_eq!(message, "unexpected argument '--sortt' found");
        assert_eq!(
            hint,
            "a similar argument exists: '--sort'; to pass '--sortt' as a value, use '-- --sortt'"
        );
    }
}
