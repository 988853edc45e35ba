//! Tool arguments written once: each tool declares its arguments as
//! [`Arg`]s, and from that one list come the advertised JSON Schema (names,
//! types, limits, enums, descriptions), the allow-list of argument names,
//! the lenient reading of what clients send, and the MCP spelling of the
//! operation's input fields in messages. The SDK checks no schema, so every
//! check happens here (docs/mcp.md "Arguments").
//!
//! Reading follows what clients in the wild send: `null` means absent, an
//! empty string means absent (except for arguments that keep it), digit
//! strings are numbers, integer-valued floats (`5.0`, `-0.0`) are integers,
//! `"true"`/`"false"` are booleans. Anything else of the wrong type is an
//! `invalid_argument` error naming the argument and what it expects.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::core::choice::Choice;
use crate::error::Field;

/// The type of an argument, with its limits.
#[derive(Debug, Clone)]
pub enum Kind {
    /// A string; `""` is absent unless `keep_empty`.
    Text {
        /// `""` is a value of its own (the search `query`: filters only).
        keep_empty: bool,
    },
    /// An identifier: a string, or a whole JSON number read as its digits
    /// (clients send PMIDs both ways); `""` is absent.
    Id,
    /// A whole number in `min..=max`.
    Integer {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
        /// The value when absent.
        default: Option<u64>,
    },
    /// `true` or `false`.
    Boolean {
        /// The value when absent.
        default: bool,
    },
    /// One of a fixed list of names (read in any case, as on the command
    /// line).
    Choice {
        /// The names, as written in the schema.
        values: Vec<&'static str>,
        /// The value when absent.
        default: Option<&'static str>,
    },
    /// A list of strings with `min..=max` elements.
    Strings {
        /// Fewest elements.
        min: usize,
        /// Most elements.
        max: Option<usize>,
    },
    /// A list of identifiers with `min..=max` elements: strings, or whole
    /// JSON numbers read as their digits (clients send PMIDs both ways).
    Ids {
        /// Fewest elements.
        min: usize,
        /// Most elements.
        max: usize,
    },
    /// An object with its own arguments.
    Object(Vec<Arg>),
}

/// One argument of a tool.
#[derive(Debug, Clone)]
pub struct Arg {
    /// The name clients send.
    pub name: &'static str,
    /// The operation input it fills, so errors about that input name it.
    pub field: Option<Field>,
    /// Type and limits.
    pub kind: Kind,
    /// Must be given.
    pub required: bool,
    /// What it means, for the model.
    pub description: String,
}

impl Arg {
    fn new(name: &'static str, kind: Kind, description: impl Into<String>) -> Arg {
        Arg {
            name,
            field: None,
            kind,
            required: false,
            description: description.into(),
        }
    }

    /// A string argument (`""` = absent).
    pub fn text(name: &'static str, description: impl Into<String>) -> Arg {
        Arg::new(name, Kind::Text { keep_empty: false }, description)
    }

    /// A string argument where `""` is a value of its own.
    pub fn text_keep_empty(name: &'static str, description: impl Into<String>) -> Arg {
        Arg::new(name, Kind::Text { keep_empty: true }, description)
    }

    /// An identifier (a string, or a whole number read as its digits).
    pub fn id(name: &'static str, description: impl Into<String>) -> Arg {
        Arg::new(name, Kind::Id, description)
    }

    /// A whole number in `min..=max`.
    pub fn integer(
        name: &'static str,
        min: u64,
        max: u64,
        default: Option<u64>,
        description: impl Into<String>,
    ) -> Arg {
        Arg::new(name, Kind::Integer { min, max, default }, description)
    }

    /// A boolean (absent = false).
    pub fn boolean(name: &'static str, description: impl Into<String>) -> Arg {
        Arg::new(name, Kind::Boolean { default: false }, description)
    }

    /// A boolean that is `default` when absent.
    pub fn boolean_or(name: &'static str, default: bool, description: impl Into<String>) -> Arg {
        Arg::new(name, Kind::Boolean { default }, description)
    }

    /// One of `values`.
    pub fn choice(
        name: &'static str,
        values: &[&'static str],
        default: Option<&'static str>,
        description: impl Into<String>,
    ) -> Arg {
        Arg::new(
            name,
            Kind::Choice {
                values: values.to_vec(),
                default,
            },
            description,
        )
    }

    /// One of the values of the shared choice `T` (the CLI's names).
    pub fn choice_of<T: Choice>(
        name: &'static str,
        default: Option<T>,
        description: impl Into<String>,
    ) -> Arg {
        let values: Vec<&'static str> = T::ALL.iter().map(|v| v.as_str()).collect();
        Arg::choice(name, &values, default.map(Choice::as_str), description)
    }

    /// A list of strings.
    pub fn strings(
        name: &'static str,
        min: usize,
        max: Option<usize>,
        description: impl Into<String>,
    ) -> Arg {
        Arg::new(name, Kind::Strings { min, max }, description)
    }

    /// A list of `min..=max` identifiers (strings or whole numbers).
    pub fn ids(name: &'static str, min: usize, max: usize, description: impl Into<String>) -> Arg {
        Arg::new(name, Kind::Ids { min, max }, description)
    }

    /// An object of `args`.
    pub fn object(name: &'static str, args: Vec<Arg>, description: impl Into<String>) -> Arg {
        Arg::new(name, Kind::Object(args), description)
    }

    /// Marks the argument required.
    pub fn required(mut self) -> Arg {
        self.required = true;
        self
    }

    /// Names the operation input this argument fills.
    pub fn fills(mut self, field: Field) -> Arg {
        self.field = Some(field);
        self
    }

    fn schema(&self) -> Value {
        let mut s = match &self.kind {
            Kind::Text { .. } | Kind::Id => json!({"type": "string"}),
            Kind::Integer { min, max, default } => {
                let mut s = json!({"type": "integer", "minimum": min, "maximum": max});
                if let Some(d) = default {
                    s["default"] = json!(d);
                }
                s
            }
            Kind::Boolean { default } => json!({"type": "boolean", "default": default}),
            Kind::Choice { values, default } => {
                let mut s = json!({"type": "string", "enum": values});
                if let Some(d) = default {
                    s["default"] = json!(d);
                }
                s
            }
            Kind::Ids { min, max } => json!({
                "type": "array",
                "items": {"type": "string", "description": "One ID (digits)."},
                "minItems": min,
                "maxItems": max
            }),
            Kind::Strings { min, max } => {
                let mut s = json!({"type": "array", "items": {"type": "string"}});
                if *min > 0 {
                    s["minItems"] = json!(min);
                }
                if let Some(m) = max {
                    s["maxItems"] = json!(m);
                }
                s
            }
            Kind::Object(args) => object_schema(args),
        };
        s["description"] = Value::String(self.description.clone());
        s
    }

    /// What a value must look like, for messages.
    fn expects(&self) -> String {
        match &self.kind {
            Kind::Text { .. } => "a string".into(),
            Kind::Id => "a string of the ID".into(),
            Kind::Integer { min, max, .. } => format!("a whole number {min}–{max}"),
            Kind::Boolean { .. } => "true or false".into(),
            Kind::Choice { values, .. } => format!("one of {}", quoted_list(values)),
            Kind::Strings { .. } => "a list of strings".into(),
            Kind::Ids { .. } => "a list of IDs (strings of digits)".into(),
            Kind::Object(args) => format!(
                "an object with {}",
                args.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

/// Choice names match in any case, with `-` and `_` ignored (`cited_by`
/// and `citedBy` for `cited-by`, `PUB-DATE` for `pub_date`).
fn same_name(name: &str, given: &str) -> bool {
    // `-` and `_` are ignored, so `citedBy` is `cited-by` too
    let fold = |s: &str| {
        s.trim()
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect::<String>()
    };
    fold(name) == fold(given)
}

fn quoted_list(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| format!("\"{v}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON Schema of an object with `args`: plain, portable (no `$ref`, no
/// type arrays, `additionalProperties: false`).
pub fn object_schema(args: &[Arg]) -> Value {
    let mut props = Map::new();
    for a in args {
        props.insert(a.name.to_string(), a.schema());
    }
    let required: Vec<&str> = args.iter().filter(|a| a.required).map(|a| a.name).collect();
    let mut s = json!({"type": "object", "properties": props, "additionalProperties": false});
    if !required.is_empty() {
        s["required"] = json!(required);
    }
    s
}

/// The MCP path of the argument that fills `field` (`dateRange.minDate`),
/// if one of `args` does.
pub fn path_of(args: &[Arg], field: Field) -> Option<String> {
    for a in args {
        if a.field == Some(field) {
            return Some(a.name.to_string());
        }
        if let Kind::Object(inner) = &a.kind
            && let Some(p) = path_of(inner, field)
        {
            return Some(format!("{}.{p}", a.name));
        }
    }
    None
}

/// A value read and checked against its [`Arg`].
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    /// A string (or a choice).
    Text(String),
    /// A whole number within the limits.
    Integer(u64),
    /// A boolean.
    Boolean(bool),
    /// A list of strings.
    Strings(Vec<String>),
    /// A nested object.
    Object(Values),
}

/// The arguments of one call, checked; absent ones are left out (defaults
/// are applied by the getters).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values(BTreeMap<&'static str, Read>);

impl Values {
    /// A string argument, or `None` when absent.
    pub fn text(&self, name: &str) -> Option<String> {
        match self.0.get(name) {
            Some(Read::Text(s)) => Some(s.clone()),
            _ => None,
        }
    }

    /// A whole-number argument, or `None` when absent.
    pub fn integer(&self, name: &str) -> Option<u64> {
        match self.0.get(name) {
            Some(Read::Integer(n)) => Some(*n),
            _ => None,
        }
    }

    /// A choice argument as the shared enum `T`, or `None` when absent.
    pub fn choice<T: Choice>(&self, name: &str) -> Option<T> {
        let given = self.text(name)?;
        T::ALL.iter().copied().find(|v| v.as_str() == given)
    }

    /// A boolean argument (absent = false).
    pub fn boolean(&self, name: &str) -> bool {
        matches!(self.0.get(name), Some(Read::Boolean(true)))
    }

    /// A list argument (absent = empty).
    pub fn strings(&self, name: &str) -> Vec<String> {
        match self.0.get(name) {
            Some(Read::Strings(v)) => v.clone(),
            _ => Vec::new(),
        }
    }

    /// A nested object (absent = empty).
    pub fn object(&self, name: &str) -> Values {
        match self.0.get(name) {
            Some(Read::Object(v)) => v.clone(),
            _ => Values::default(),
        }
    }
}

/// An argument the client must correct: an `invalid_argument` result
/// naming the argument's path (`dateRange.minDate`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    /// The argument's path.
    pub path: String,
    /// What is wrong and what it expects.
    pub message: String,
}

fn bad(path: &str, message: String) -> ArgError {
    ArgError {
        path: path.to_string(),
        message,
    }
}

/// A short rendering of what the client sent, for messages.
fn shown(v: &Value) -> String {
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    };
    let mut text = v.to_string();
    if text.chars().count() > 60 {
        text = text.chars().take(57).collect::<String>() + "…";
    }
    format!("{kind} ({text})")
}

/// Whole numbers as sent: in `u64` range, or a whole number outside it
/// (negative, huge) given as text for the message.
enum Whole {
    Fits(u64),
    Outside(String),
}

fn whole(v: &Value) -> Option<Whole> {
    match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                return Some(Whole::Fits(u));
            }
            if n.as_i64().is_some() {
                return Some(Whole::Outside(n.to_string()));
            }
            let f = n.as_f64()?;
            if !f.is_finite() || f.fract() != 0.0 {
                return None;
            }
            // An integer-valued float is that integer (`5.0`, `-0.0`).
            if f == 0.0 {
                Some(Whole::Fits(0))
            } else if f > 0.0 && f <= 9_007_199_254_740_992.0 {
                Some(Whole::Fits(f as u64))
            } else {
                Some(Whole::Outside(n.to_string()))
            }
        }
        Value::String(s) => {
            let t = s.trim();
            let digits = t.strip_prefix('-').unwrap_or(t);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(match t.parse::<u64>() {
                Ok(u) => Whole::Fits(u),
                Err(_) if digits.bytes().all(|b| b == b'0') => Whole::Fits(0),
                Err(_) => Whole::Outside(t.to_string()),
            })
        }
        _ => None,
    }
}

/// Argument names agents send for ours (E-utilities spellings, snake_case,
/// other servers' names): `(alias, name)`, applied where `name` is an
/// argument of the object read (docs/mcp.md "Argument aliases"). Giving
/// both is an error.
pub const ALIASES: &[(&str, &str)] = &[
    ("term", "query"),
    ("q", "query"),
    ("retmax", "maxResults"),
    ("limit", "maxResults"),
    ("max_results", "maxResults"),
    ("maxresults", "maxResults"),
    ("retstart", "offset"),
    ("start", "offset"),
    ("id_type", "idType"),
    ("idtype", "idType"),
    ("ids", "pmids"),
    ("id", "pmid"),
    ("date_range", "dateRange"),
    ("min_date", "minDate"),
    ("mindate", "minDate"),
    ("max_date", "maxDate"),
    ("maxdate", "maxDate"),
    ("datetype", "dateType"),
    ("date_type", "dateType"),
    // pubmed_lookup_mesh (`term`, `max`) and pubmed_fetch_fulltext (`ids`)
    ("query", "term"),
    ("maxResults", "max"),
    ("limit", "max"),
    ("retmax", "max"),
    ("max_results", "max"),
    ("pmids", "ids"),
    ("pmcids", "ids"),
    ("max_characters", "maxCharacters"),
];

/// Date bounds given at the top level, moved into `dateRange` when the
/// tool has one: `(alias, name inside dateRange)`.
const LIFTED: &[(&str, &str)] = &[
    ("mindate", "minDate"),
    ("min_date", "minDate"),
    ("minDate", "minDate"),
    ("maxdate", "maxDate"),
    ("max_date", "maxDate"),
    ("maxDate", "maxDate"),
    ("datetype", "dateType"),
    ("dateType", "dateType"),
];

/// Choice values agents send for ours: `(alias, value)`, applied where
/// `value` is one of the choices.
pub const VALUE_ALIASES: &[(&str, &str)] = &[("date", "pub_date"), ("pubdate", "pub_date")];

/// `map` with [`ALIASES`] renamed and [`LIFTED`] date bounds moved into
/// `dateRange`.
///
/// Errors: an alias given together with its name (or twice).
fn unaliased(
    args: &[Arg],
    map: &Map<String, Value>,
    within: &str,
) -> Result<Map<String, Value>, ArgError> {
    let has = |n: &str| args.iter().any(|a| a.name == n);
    let mut out = Map::new();
    let mut lifted = Map::new();
    let range_here = has("dateRange");
    for (k, v) in map {
        let name = if has(k) {
            k.as_str()
        } else if let Some((_, name)) = ALIASES.iter().find(|(a, n)| a == k && has(n)) {
            name
        } else if range_here && let Some((_, inner)) = LIFTED.iter().find(|(a, _)| a == k) {
            if lifted.insert((*inner).to_string(), v.clone()).is_some() {
                return Err(bad(
                    k,
                    format!("`{k}` gives `dateRange.{inner}` a second time"),
                ));
            }
            continue;
        } else {
            k.as_str()
        };
        if out.insert(name.to_string(), v.clone()).is_some() {
            let p = if within.is_empty() {
                name.to_string()
            } else {
                format!("{within}.{name}")
            };
            return Err(bad(
                &p,
                format!("`{p}` is given twice (as `{k}` and under another name); give it once"),
            ));
        }
    }
    if !lifted.is_empty() {
        match out.get_mut("dateRange") {
            Some(Value::Object(range)) => {
                for (k, v) in lifted {
                    if range.insert(k.clone(), v).is_some() {
                        return Err(bad(
                            "dateRange",
                            format!("`dateRange.{k}` is given twice; give it once"),
                        ));
                    }
                }
            }
            Some(_) => {}
            None => {
                out.insert("dateRange".into(), Value::Object(lifted));
            }
        }
    }
    Ok(out)
}

/// A list or object sent as JSON text (`"[\"a\",\"b\"]"`), parsed; other
/// values as they are.
fn unstringified(a: &Arg, v: &Value) -> Option<Value> {
    let Value::String(s) = v else { return None };
    let t = s.trim();
    let wants = match a.kind {
        Kind::Strings { .. } | Kind::Ids { .. } => t.starts_with('['),
        Kind::Object(_) => t.starts_with('{'),
        _ => false,
    };
    if !wants {
        return None;
    }
    serde_json::from_str::<Value>(t)
        .ok()
        .filter(|p| p.is_array() || p.is_object())
}

/// Arguments that earlier versions took, with what replaced them.
const REPLACED: &[(&str, &str)] = &[(
    "summaryCount",
    "`summaryCount` was replaced by `detail`: \"full\" (the default) gives a summary for every PMID returned, \"brief\" a short one, \"ids\" none",
)];

/// Reads `map` against `args`. `within` is the path of the enclosing object
/// (empty at the top), `owner` names it in messages (the tool, or the
/// object's path).
///
/// Errors (each an `invalid_argument` result): an unknown argument, a missing required
/// one, a value of the wrong type, a value outside its limits or not in its
/// list, naming the argument's path and what it expects.
pub fn read(args: &[Arg], map: &Map<String, Value>, owner: &str) -> Result<Values, ArgError> {
    read_in(args, map, "", owner)
}

fn read_in(
    args: &[Arg],
    map: &Map<String, Value>,
    within: &str,
    owner: &str,
) -> Result<Values, ArgError> {
    let path = |name: &str| {
        if within.is_empty() {
            name.to_string()
        } else {
            format!("{within}.{name}")
        }
    };
    let map = &unaliased(args, map, within)?;
    if let Some(k) = map
        .keys()
        .find(|k| !args.iter().any(|a| a.name == k.as_str()))
    {
        let p = path(k);
        if let Some((_, why)) = REPLACED.iter().find(|(old, _)| *old == k.as_str()) {
            return Err(bad(&p, format!("unknown argument `{p}`: {why}")));
        }
        return Err(bad(
            &p,
            format!(
                "unknown argument `{p}` ({owner} takes {})",
                args.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let mut out = Values::default();
    for a in args {
        let p = path(a.name);
        let read = match map.get(a.name).filter(|v| !v.is_null()) {
            Some(v) => match unstringified(a, v) {
                Some(parsed) => value(a, &parsed, &p)?,
                None => value(a, v, &p)?,
            },
            None => None,
        };
        match read {
            Some(r) => {
                out.0.insert(a.name, r);
            }
            // absent, null, or `""` where that means absent
            None if a.required => {
                return Err(bad(
                    &p,
                    format!("`{p}` is required: {} ({})", a.expects(), a.description),
                ));
            }
            None => {
                if let Kind::Boolean { default: true } = a.kind {
                    out.0.insert(a.name, Read::Boolean(true));
                }
            }
        }
    }
    Ok(out)
}

/// One value given for `a` (at path `p`), read; `None` when it counts as
/// absent (`""`).
fn value(a: &Arg, v: &Value, p: &str) -> Result<Option<Read>, ArgError> {
    let wrong = || {
        bad(
            p,
            format!("`{p}` must be {}, not {}", a.expects(), shown(v)),
        )
    };
    Ok(match (&a.kind, v) {
        (Kind::Text { keep_empty }, Value::String(s)) => {
            (!s.is_empty() || *keep_empty).then(|| Read::Text(s.clone()))
        }
        (Kind::Id, Value::String(s)) => (!s.is_empty()).then(|| Read::Text(s.clone())),
        (Kind::Id, Value::Number(n)) if n.is_u64() => Some(Read::Text(n.to_string())),
        (Kind::Integer { .. }, Value::String(s)) if s.is_empty() => None,
        (Kind::Integer { min, max, .. }, v) => match whole(v) {
            Some(Whole::Fits(n)) if (*min..=*max).contains(&n) => Some(Read::Integer(n)),
            Some(Whole::Fits(n)) => {
                return Err(bad(p, format!("`{p}` {n} is outside {min}–{max}")));
            }
            Some(Whole::Outside(t)) => {
                return Err(bad(p, format!("`{p}` {t} is outside {min}–{max}")));
            }
            None => return Err(wrong()),
        },
        (Kind::Boolean { .. }, Value::Bool(b)) => Some(Read::Boolean(*b)),
        (Kind::Boolean { .. }, Value::String(s)) if s.is_empty() => None,
        (Kind::Boolean { .. }, Value::String(s)) if s == "true" || s == "false" => {
            Some(Read::Boolean(s == "true"))
        }
        (Kind::Choice { .. }, Value::String(s)) if s.is_empty() => None,
        (Kind::Choice { values, .. }, Value::String(s)) => {
            let s = VALUE_ALIASES
                .iter()
                .find(|(alias, to)| same_name(alias, s) && values.contains(to))
                .map_or(s.as_str(), |(_, to)| *to);
            match values.iter().find(|v| same_name(v, s)) {
                Some(v) => Some(Read::Text((*v).to_string())),
                None => {
                    return Err(bad(
                        p,
                        format!("`{p}` {s:?} is not one of {}", quoted_list(values)),
                    ));
                }
            }
        }
        (Kind::Strings { min, max }, Value::Array(items)) => {
            // a list of IDs of any type takes PMIDs as numbers too
            let numbers = a.field == Some(Field::Ids);
            Some(Read::Strings(list(p, items, *min, *max, numbers)?))
        }
        (Kind::Ids { min, max }, Value::Array(items)) => {
            Some(Read::Strings(list(p, items, *min, Some(*max), true)?))
        }
        (Kind::Object(inner), Value::Object(m)) => {
            Some(Read::Object(read_in(inner, m, p, &format!("`{p}`"))?))
        }
        _ => return Err(wrong()),
    })
}

/// The elements of a list argument at path `p`, `min..=max` of them:
/// strings, and with `ids` whole numbers too (read as their digits).
fn list(
    p: &str,
    items: &[Value],
    min: usize,
    max: Option<usize>,
    ids: bool,
) -> Result<Vec<String>, ArgError> {
    let mut list = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) => list.push(s.clone()),
            Value::Number(n) if ids && n.is_u64() => list.push(n.to_string()),
            other => {
                let want = if ids {
                    "a string of digits"
                } else {
                    "a string"
                };
                return Err(bad(
                    p,
                    format!("`{p}[{i}]` must be {want}, not {}", shown(other)),
                ));
            }
        }
    }
    let n = list.len();
    if n < min || max.is_some_and(|m| n > m) {
        let range = match max {
            Some(m) => format!("{min} to {m}"),
            None => format!("at least {min}"),
        };
        return Err(bad(p, format!("`{p}` holds {n} elements; give {range}")));
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> Vec<Arg> {
        vec![
            Arg::text_keep_empty("query", "q").required(),
            Arg::integer("n", 0, 1000, Some(20), "n"),
            Arg::boolean("flag", "f"),
            Arg::choice("sort", &["a", "b"], None, "s"),
            Arg::strings("list", 0, Some(3), "l"),
            Arg::object(
                "range",
                vec![Arg::text("min", "m").fills(Field::MinDate)],
                "r",
            ),
        ]
    }

    fn ok(v: Value) -> Values {
        read(&args(), v.as_object().unwrap(), "tool").unwrap()
    }

    fn err(v: Value) -> String {
        read(&args(), v.as_object().unwrap(), "tool")
            .unwrap_err()
            .message
    }

    #[test]
    fn whole_numbers_in_every_spelling() {
        for (v, n) in [
            (json!(5), 5),
            (json!(5.0), 5),
            (json!(-0.0), 0),
            (json!("5"), 5),
            (json!(" 7 "), 7),
            (json!(1000.0), 1000),
            (json!("-0"), 0),
        ] {
            assert_eq!(
                ok(json!({"query": "", "n": v})).integer("n"),
                Some(n),
                "{v}"
            );
        }
        assert_eq!(ok(json!({"query": "", "n": null})).integer("n"), None);
        assert_eq!(ok(json!({"query": "", "n": ""})).integer("n"), None);
    }

    #[test]
    fn wrong_types_name_the_argument_and_what_it_expects() {
        for (v, needle) in [
            (
                json!({"query": 5}),
                "`query` must be a string, not a number (5)",
            ),
            (
                json!({"query": "", "n": "five"}),
                "`n` must be a whole number 0–1000, not a string (\"five\")",
            ),
            (
                json!({"query": "", "n": 2.5}),
                "`n` must be a whole number 0–1000",
            ),
            (json!({"query": "", "n": -5}), "`n` -5 is outside 0–1000"),
            (json!({"query": "", "n": "-5"}), "`n` -5 is outside 0–1000"),
            (
                json!({"query": "", "n": 1e20}),
                "`n` 1e+20 is outside 0–1000",
            ),
            (
                json!({"query": "", "n": 1001.0}),
                "`n` 1001 is outside 0–1000",
            ),
            (
                json!({"query": "", "flag": 1}),
                "`flag` must be true or false",
            ),
            (
                json!({"query": "", "sort": "c"}),
                "`sort` \"c\" is not one of \"a\", \"b\"",
            ),
            (
                json!({"query": "", "list": "x"}),
                "`list` must be a list of strings, not a string (\"x\")",
            ),
            (
                json!({"query": "", "list": ["x", 1]}),
                "`list[1]` must be a string, not a number (1)",
            ),
            (
                json!({"query": "", "list": ["a", "b", "c", "d"]}),
                "`list` holds 4 elements; give 0 to 3",
            ),
            (
                json!({"query": "", "range": "2020"}),
                "`range` must be an object with min, not a string",
            ),
            (
                json!({"query": "", "range": {"max": "2020"}}),
                "unknown argument `range.max` (`range` takes min)",
            ),
            (
                json!({"query": "", "range": {"min": 2020}}),
                "`range.min` must be a string, not a number (2020)",
            ),
            (
                json!({"query": "", "bogus": 1}),
                "unknown argument `bogus` (tool takes query, n, flag, sort, list, range)",
            ),
            (json!({}), "`query` is required"),
            (json!({"query": null}), "`query` is required"),
        ] {
            let m = err(v.clone());
            assert!(m.contains(needle), "{v}: {m}");
        }
    }

    #[test]
    fn absent_values_and_empty_strings() {
        assert_eq!(
            ok(json!({"query": "", "sort": " B "}))
                .text("sort")
                .as_deref(),
            Some("b"),
            "choices in any case, as on the command line"
        );
        let v = ok(json!({"query": "", "sort": "", "flag": "true", "list": []}));
        assert_eq!(v.text("query").as_deref(), Some(""));
        assert_eq!(v.text("sort"), None);
        assert!(v.boolean("flag"));
        assert!(v.strings("list").is_empty());
        assert_eq!(
            ok(json!({"query": "x", "range": {"min": "2020"}}))
                .object("range")
                .text("min")
                .as_deref(),
            Some("2020")
        );
    }

    #[test]
    fn id_lists_take_digit_strings_and_whole_numbers() {
        let a = [
            Arg::ids("pmids", 1, 3, "p"),
            Arg::boolean_or("withAbstract", true, "w"),
        ];
        let read_ok = |v: Value| read(&a, v.as_object().unwrap(), "tool").unwrap();
        let read_err = |v: Value| read(&a, v.as_object().unwrap(), "tool").unwrap_err();
        let v = read_ok(json!({"pmids": ["0012091962", 9997]}));
        assert_eq!(v.strings("pmids"), ["0012091962", "9997"]);
        assert!(v.boolean("withAbstract"), "absent is the default, true");
        assert!(!read_ok(json!({"withAbstract": "false"})).boolean("withAbstract"));
        for (bad, needle) in [
            (
                json!({"pmids": [1.5]}),
                "`pmids[0]` must be a string of digits",
            ),
            (
                json!({"pmids": [-3]}),
                "`pmids[0]` must be a string of digits",
            ),
            (json!({"pmids": "9997"}), "`pmids` must be a list of IDs"),
            (
                json!({"pmids": []}),
                "`pmids` holds 0 elements; give 1 to 3",
            ),
            (
                json!({"pmids": ["1", "2", "3", "4"]}),
                "`pmids` holds 4 elements",
            ),
        ] {
            let e = read_err(bad.clone());
            assert_eq!(e.path, "pmids", "{bad}");
            assert!(e.message.contains(needle), "{bad}: {}", e.message);
        }
        let s = object_schema(&a);
        assert_eq!(s["properties"]["pmids"]["minItems"], 1);
        assert_eq!(s["properties"]["pmids"]["maxItems"], 3);
        assert_eq!(s["properties"]["withAbstract"]["default"], true);
    }

    /// Issue 27: the names and spellings agents send are read as ours.
    #[test]
    fn aliases_stringified_json_and_lifted_dates() {
        let a = vec![
            Arg::text_keep_empty("query", "q").required(),
            Arg::integer("maxResults", 0, 1000, Some(20), "n"),
            Arg::integer("offset", 0, 9998, Some(0), "o"),
            Arg::choice("sort", &["relevance", "pub_date"], None, "s"),
            Arg::choice("kind", &["similar", "cited-by"], None, "k"),
            Arg::strings("publicationTypes", 0, None, "p"),
            Arg::object(
                "dateRange",
                vec![Arg::text("minDate", "m"), Arg::text("maxDate", "x")],
                "r",
            ),
        ];
        let canonical = read(
            &a,
            json!({"query": "asthma", "maxResults": 5, "offset": 10, "sort": "pub_date",
                   "kind": "cited-by", "publicationTypes": ["Review", "Clinical Trial"],
                   "dateRange": {"minDate": "2020", "maxDate": "2021"}})
            .as_object()
            .unwrap(),
            "tool",
        )
        .unwrap();
        for sent in [
            json!({"term": "asthma", "retmax": 5, "retstart": 10, "sort": "date", "kind": "citedBy",
                   "publicationTypes": "[\"Review\", \"Clinical Trial\"]", "mindate": "2020", "maxdate": "2021"}),
            json!({"query": "asthma", "limit": "5", "start": 10, "sort": "PubDate", "kind": "cited_by",
                   "publicationTypes": ["Review", "Clinical Trial"], "date_range": "{\"min_date\": \"2020\", \"max_date\": \"2021\"}"}),
            json!({"q": "asthma", "max_results": 5, "offset": 10, "sort": "pub_date", "kind": "CITED-BY",
                   "publicationTypes": ["Review", "Clinical Trial"], "dateRange": {"minDate": "2020"}, "maxDate": "2021"}),
        ] {
            assert_eq!(
                read(&a, sent.as_object().unwrap(), "tool").unwrap(),
                canonical,
                "{sent}"
            );
        }
        let twice = read(
            &a,
            json!({"query": "a", "term": "b"}).as_object().unwrap(),
            "tool",
        )
        .unwrap_err();
        assert_eq!(twice.path, "query");
        assert!(twice.message.contains("given twice"), "{}", twice.message);
        // an alias is only an alias where its name is an argument
        let e = read(
            &a,
            json!({"query": "a", "ids": ["1"]}).as_object().unwrap(),
            "tool",
        )
        .unwrap_err();
        assert!(
            e.message.starts_with("unknown argument `ids`"),
            "{}",
            e.message
        );
        // an ID list of any type takes PMIDs as numbers
        let ids = [
            Arg::strings("ids", 1, Some(50), "i").fills(Field::Ids),
            Arg::text("idType", "t"),
        ];
        let v = read(
            &ids,
            json!({"ids": [40992538, "PMC1"], "id_type": "pmid"})
                .as_object()
                .unwrap(),
            "t",
        )
        .unwrap();
        assert_eq!(v.strings("ids"), ["40992538", "PMC1"]);
        assert_eq!(v.text("idType").as_deref(), Some("pmid"));
    }

    #[test]
    fn schema_paths_and_portability() {
        let a = args();
        assert_eq!(path_of(&a, Field::MinDate).as_deref(), Some("range.min"));
        assert_eq!(path_of(&a, Field::Retmax), None);
        let s = object_schema(&a);
        assert_eq!(s["additionalProperties"], false);
        assert_eq!(s["required"], json!(["query"]));
        assert_eq!(s["properties"]["n"]["maximum"], 1000);
        assert_eq!(
            s["properties"]["range"]["properties"]["min"]["type"],
            "string"
        );
        assert_eq!(s["properties"]["range"]["additionalProperties"], false);
    }
}
