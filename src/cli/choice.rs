//! The one clap adapter for named choices ([`Choice`]): help, completions
//! and man pages list the values, and a value is read ignoring ASCII case
//! (`-f JSON`). Anything else is clap's own "invalid value" error, with its
//! list of possible values and a "similar value" tip.

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::core::choice::Choice;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Format;
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
                "[possible values: table, text, json, ndjson, csv, tsv, ids, abstract, medline, xml, ris, bibtex, csl-json, html, markdown]"
            ),
            "{text}"
        );
        assert!(
            text.contains("'json'"),
            "a similar value is suggested: {text}"
        );
    }
}
