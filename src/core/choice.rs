//! Named choices: the closed sets of values a user or an agent names by a
//! word (formats, sort orders, date types, ID types, warning kinds …). One
//! enum per set, shared by the CLI, MCP and the JSON output, so a name is
//! written once. The CLI lists and parses them through one clap adapter
//! (`cli::choice`); MCP parses them with [`Choice::parse`].

use std::fmt;

/// A closed set of values, each with one name.
pub trait Choice: Copy + Eq + Sized + 'static {
    /// Every value a caller may name, in the order help and messages list them.
    const ALL: &'static [Self];

    /// The value's name, as typed on the command line and written in JSON.
    fn as_str(self) -> &'static str;

    /// The value named `s`, ignoring ASCII case and surrounding whitespace
    /// (`JSON`, ` pmid `); `None` for any other text.
    fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str().eq_ignore_ascii_case(s))
    }

    /// Every name, comma-separated, for messages: `pdat, edat, mdat`.
    fn names() -> String {
        Self::ALL
            .iter()
            .map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A name that is none of a choice's values (the `FromStr` error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// The text given.
    pub given: String,
    /// The accepted names, comma-separated.
    pub expected: String,
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not one of {}", self.given, self.expected)
    }
}

impl std::error::Error for Unknown {}

/// Defines an enum of named values and implements [`Choice`], `Display`,
/// `FromStr` and serde for it: a variant is one line, `Name = "name"`.
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// The value's name, as typed on the command line and written in JSON.
            $vis const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }
        }

        impl $crate::core::choice::Choice for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];

            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }
        }

        $crate::core::choice::choice_traits!($name);
    };
}
pub(crate) use choice;

/// `Display`, `FromStr` and serde for a type that implements [`Choice`].
macro_rules! choice_traits {
    ($name:ident) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::core::choice::Choice::as_str(*self))
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::core::choice::Unknown;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <Self as $crate::core::choice::Choice>::parse(s).ok_or_else(|| {
                    $crate::core::choice::Unknown {
                        given: s.to_string(),
                        expected: <Self as $crate::core::choice::Choice>::names(),
                    }
                })
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($crate::core::choice::Choice::as_str(*self))
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use choice_traits;

#[cfg(test)]
mod tests {
    use super::*;

    choice! {
        /// A test set.
        enum Fruit {
            /// An apple.
            Apple = "apple",
            /// A pear.
            PricklyPear = "prickly_pear",
        }
    }

    #[test]
    fn names_parse_case_insensitively_and_round_trip() {
        assert_eq!(Fruit::parse("APPLE"), Some(Fruit::Apple));
        assert_eq!(Fruit::parse(" Prickly_Pear "), Some(Fruit::PricklyPear));
        assert_eq!(Fruit::parse("pear"), None);
        assert_eq!(Fruit::names(), "apple, prickly_pear");
        assert_eq!(Fruit::PricklyPear.to_string(), "prickly_pear");
        let e = "kiwi".parse::<Fruit>().unwrap_err();
        assert_eq!(e.to_string(), "\"kiwi\" is not one of apple, prickly_pear");
        assert_eq!(
            serde_json::to_string(&Fruit::PricklyPear).unwrap(),
            "\"prickly_pear\""
        );
        assert_eq!(
            serde_json::from_str::<Fruit>("\"Apple\"").unwrap(),
            Fruit::Apple
        );
        for f in Fruit::ALL {
            assert_eq!(Fruit::parse(f.as_str()), Some(*f));
        }
    }
}
