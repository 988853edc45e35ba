//! The one clap adapter for named choices ([`Choice`]): help, completions
//! and man pages list the values, and a value is read ignoring ASCII case
//! (`-f JSON`). Anything else is clap's own "invalid value" error, with its
//! list of possible values and a "similar value" tip.

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::core::choice::Choice;
use crate::output::{CommandFormat, Format};

/// A clap value parser for the choice `T`: `value_parser = choice::<Format>()`.
pub fn choice<T: Choice + Send + Sync>() -> ChoiceParser<T> {
    ChoiceParser(PhantomData)
}

/// See [`choice`].
#[derive(Clone, Copy)]
pub struct ChoiceParser<T>(PhantomData<fn() -> T>);

impl<T: Choice + Send + Sync> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        if let Some(v) = value.to_str().and_then(T::parse) {
            return Ok(v);
        }
        // clap words the error: the argument, the value, the possible values.
        let names = PossibleValuesParser::new(T::ALL.iter().map(|v| v.as_str()));
        let name = names.parse_ref(cmd, arg, value)?;
        T::parse(&name).ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            T::ALL.iter().map(|v| PossibleValue::new(v.as_str())),
        ))
    }
}

/// The value parser of a command's `-f`: `F`'s formats (listed in help,
/// completions and man pages), read in any case, and given to the program
/// as the global [`Format`] (the global `-f` and this one are one argument,
/// so clap hands the value to both). A format of another command is
/// refused with the message of [`crate::cli::Context::format_of`].
pub fn formats<F: CommandFormat>() -> FormatParser<F> {
    FormatParser(PhantomData)
}

/// See [`formats`].
#[derive(Clone, Copy)]
pub struct FormatParser<F>(PhantomData<fn() -> F>);

impl<F: CommandFormat> TypedValueParser for FormatParser<F> {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Format, clap::Error> {
        let text = value.to_str();
        if let Some(f) = text.and_then(F::parse) {
            return Ok(f.into());
        }
        if let Some(other) = text.and_then(Format::parse) {
            let e = clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("{}\n", not_offered::<F>(other)),
            );
            return Err(e.with_cmd(cmd));
        }
        let f = ChoiceParser::<F>(PhantomData).parse_ref(cmd, arg, value)?;
        Ok(f.into())
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        ChoiceParser::<F>(PhantomData).possible_values()
    }
}

/// `--format ids is not available for `fetch` (use abstract, …)`.
pub fn not_offered<F: CommandFormat>(given: Format) -> String {
    format!(
        "--format {} is not available for `{}` (use {})",
        given.as_str(),
        F::COMMAND,
        F::names()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::fetch::FetchFormat;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Probe {
        #[arg(short, long, value_parser = choice::<Format>())]
        format: Option<Format>,
    }

    #[test]
    fn values_are_read_in_any_case_and_listed_in_errors() {
        for spelling in ["json", "JSON", "Json"] {
            let p = Probe::try_parse_from(["x", "-f", spelling]).unwrap();
            assert_eq!(p.format, Some(Format::Json), "{spelling}");
        }
        let e = Probe::try_parse_from(["x", "-f", "jsn"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidValue);
        let text = e.to_string();
        assert!(
            text.contains(
                "[possible values: table, text, json, ndjson, csv, tsv, ids, abstract, medline, xml, ris, bibtex, csl-json, html, markdown, jats]"
            ),
            "{text}"
        );
        assert!(
            text.contains("'json'"),
            "a similar value is suggested: {text}"
        );
    }

    #[derive(Parser, Debug)]
    struct FetchProbe {
        #[arg(short, long, value_parser = formats::<FetchFormat>())]
        format: Option<Format>,
    }

    #[test]
    fn a_commands_formats_are_its_own() {
        let p = FetchProbe::try_parse_from(["x", "-f", "CSL-JSON"]).unwrap();
        assert_eq!(p.format, Some(Format::CslJson));
        // another command's format: the adapter's message
        let e = FetchProbe::try_parse_from(["x", "-f", "ids"]).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "error: --format ids is not available for `fetch` (use abstract, medline, xml, json, ndjson, csv, tsv, table, ris, bibtex, csl-json)"
            ),
            "{e}"
        );
        // no format at all: clap's error, listing this command's values
        let e = FetchProbe::try_parse_from(["x", "-f", "jsn"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidValue);
        let text = e.to_string();
        assert!(
            text.contains("[possible values: abstract, medline, xml, json, ndjson, csv, tsv, table, ris, bibtex, csl-json]"),
            "{text}"
        );
    }
}
