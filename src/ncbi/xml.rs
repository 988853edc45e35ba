//! A small element tree over quick-xml, enough for E-utilities documents.
//! Elements are followed by name, never by DTD: an unknown DOCTYPE or an
//! extra element parses the same, and no DTD is fetched.
//!
//! The tree is walked (and dropped) recursively, so [`parse`] refuses a
//! document nested deeper than [`MAX_DEPTH`]: every walk stays bounded
//! (docs/client.md, "Classifying an answer").

use quick_xml::Reader;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};

/// An XML element with its attributes and children in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Element {
    /// Element name as written (`eSearchResult`).
    pub name: String,
    /// Attributes, unescaped.
    pub attrs: Vec<(String, String)>,
    /// Child nodes in document order.
    pub children: Vec<Node>,
}

/// A child of an element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A nested element.
    Element(Element),
    /// Character data, entities resolved (unknown entities kept as `&name;`).
    Text(String),
}

/// The deepest element nesting [`parse`] accepts. NCBI's documents go about
/// 15 levels deep (a MathML formula inside an `ArticleTitle`); a body
/// nested deeper is not an E-utilities answer, and refusing it keeps every
/// recursive walk of the tree, its drop included, far from the stack's end.
pub const MAX_DEPTH: usize = 256;

/// Why a body is not a usable XML document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XmlError {
    /// Only a prolog, DOCTYPE or comments: no root element (transient at NCBI).
    NoRoot,
    /// Not well-formed: mismatched tags, bad syntax, too deep.
    Malformed(String),
    /// Well-formed so far but ending inside an open element: the body was
    /// cut short (transient at NCBI). Holds the innermost open element.
    Truncated(String),
}

impl Element {
    /// The first child element called `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.elements().find(|e| e.name == name)
    }

    /// Child elements called `name`, in order.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.elements().filter(move |e| e.name == name)
    }

    /// The texts of the `<Id>` elements of child `<IdList>` (ESearch,
    /// ELink), trimmed, in order; empty without one.
    pub fn id_list(&self) -> Vec<String> {
        self.child("IdList")
            .map(|l| {
                l.children_named("Id")
                    .map(|i| i.text().trim().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// All child elements, in order.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// The concatenated text of this element and its descendants.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.collect_text(&mut out);
        out
    }

    fn collect_text(&self, out: &mut String) {
        for n in &self.children {
            match n {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) => e.collect_text(out),
            }
        }
    }

    /// The text of the first child called `name`, if present.
    pub fn child_text(&self, name: &str) -> Option<String> {
        self.child(name).map(Element::text)
    }

    /// The value of attribute `name`.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every element called `name` at any depth below this one (this one included).
    pub fn descendants<'a>(&'a self, name: &'a str, out: &mut Vec<&'a Element>) {
        if self.name == name {
            out.push(self);
        }
        for e in self.elements() {
            e.descendants(name, out);
        }
    }
}

fn start_element(e: &BytesStart<'_>) -> Result<Element, XmlError> {
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| XmlError::Malformed(err.to_string()))?;
        let value = a
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|err| XmlError::Malformed(err.to_string()))?;
        attrs.push((a.key.as_ref().to_string(), value.into_owned()));
    }
    Ok(Element {
        name: e.name().as_ref().to_string(),
        attrs,
        children: Vec::new(),
    })
}

fn push_text(stack: &mut [Element], text: &str) {
    if let Some(top) = stack.last_mut() {
        if let Some(Node::Text(t)) = top.children.last_mut() {
            t.push_str(text);
        } else {
            top.children.push(Node::Text(text.to_string()));
        }
    }
}

/// Parses a whole document into its root element.
///
/// Errors: [`XmlError::NoRoot`] when there is no root element,
/// [`XmlError::Truncated`] when it ends with an element still open,
/// [`XmlError::Malformed`] when the document is not well-formed or nests
/// elements deeper than [`MAX_DEPTH`].
pub fn parse(body: &str) -> Result<Element, XmlError> {
    parse_with(body, |_, el| Some(el))
}

/// [`parse`] that hands every element, as it closes, to `take` with its
/// open ancestors (root first): `Some(el)` keeps it in its parent, `None`
/// means `take` consumed it, and it is dropped there. A caller that
/// consumes the repeated records of a large answer (ESummary's
/// `DocumentSummary`) holds one record's tree at a time instead of the
/// whole document's (docs/search.md "Memory"). A consumed root leaves the
/// document without a root ([`XmlError::NoRoot`]).
///
/// Errors: as [`parse`]; `take` is not called after the first error.
pub fn parse_with(
    body: &str,
    mut take: impl FnMut(&[Element], Element) -> Option<Element>,
) -> Result<Element, XmlError> {
    let mut reader = Reader::from_str(body);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    // The root closed but `take` consumed it: what follows is still
    // "after the root".
    let mut closed_root = false;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| XmlError::Malformed(e.to_string()))?;
        match event {
            Event::Start(e) => {
                if root.is_some() || closed_root {
                    return Err(XmlError::Malformed("content after the root element".into()));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(XmlError::Malformed(format!(
                        "elements nested more than {MAX_DEPTH} levels deep"
                    )));
                }
                stack.push(start_element(&e)?);
            }
            Event::Empty(e) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(XmlError::Malformed(format!(
                        "elements nested more than {MAX_DEPTH} levels deep"
                    )));
                }
                if root.is_some() || closed_root {
                    return Err(XmlError::Malformed("content after the root element".into()));
                }
                let el = start_element(&e)?;
                let is_root = stack.is_empty();
                match (take(&stack, el), stack.last_mut()) {
                    (Some(el), Some(parent)) => parent.children.push(Node::Element(el)),
                    (Some(el), None) => root = Some(el),
                    (None, _) => closed_root |= is_root,
                }
            }
            Event::End(_) => {
                let el = stack
                    .pop()
                    .ok_or_else(|| XmlError::Malformed("unmatched end tag".into()))?;
                let is_root = stack.is_empty();
                match (take(&stack, el), stack.last_mut()) {
                    (Some(el), Some(parent)) => parent.children.push(Node::Element(el)),
                    (Some(el), None) => root = Some(el),
                    (None, _) => closed_root |= is_root,
                }
            }
            Event::Text(t) => {
                let text = t.xml10_content();
                if stack.is_empty() {
                    if text.trim().is_empty() {
                        continue;
                    }
                    return Err(XmlError::Malformed("text outside the root element".into()));
                }
                push_text(&mut stack, &text);
            }
            Event::CData(t) => push_text(&mut stack, &t.xml10_content()),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    Ok(None) => {
                        let name = r.xml10_content();
                        resolve_predefined_entity(&name)
                            .map_or_else(|| format!("&{name};"), str::to_string)
                    }
                    Err(e) => return Err(XmlError::Malformed(e.to_string())),
                };
                if stack.is_empty() {
                    return Err(XmlError::Malformed("text outside the root element".into()));
                }
                push_text(&mut stack, &resolved);
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::DocType(_) | Event::Comment(_) => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(XmlError::Truncated(open.name.clone()));
    }
    root.ok_or(XmlError::NoRoot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_whitespace_and_order() {
        let root = parse(
            "<?xml version=\"1.0\"?><!DOCTYPE x><a><b>1</b> <c k=\"v&amp;w\"/>t&amp;u&#946;&nbsp;</a>",
        )
        .unwrap();
        assert_eq!(root.name, "a");
        assert_eq!(root.child_text("b").as_deref(), Some("1"));
        assert_eq!(root.child("c").unwrap().attr("k"), Some("v&w"));
        assert_eq!(root.text(), "1 t&uβ&nbsp;");
    }

    #[test]
    fn prolog_only_is_no_root() {
        assert_eq!(
            parse("<?xml version=\"1.0\"?>\n<!DOCTYPE eSpellResult>\n"),
            Err(XmlError::NoRoot)
        );
        assert_eq!(parse(""), Err(XmlError::NoRoot));
    }

    #[test]
    fn truncated_and_mismatched_are_malformed() {
        assert_eq!(parse("<a><b>x</b>"), Err(XmlError::Truncated("a".into())));
        assert_eq!(parse("<a><b>x"), Err(XmlError::Truncated("b".into())));
        assert!(matches!(
            parse("<a><b>x</c></a>"),
            Err(XmlError::Malformed(_))
        ));
        assert!(matches!(parse("not xml"), Err(XmlError::Malformed(_))));
        assert!(matches!(parse("<a/><b/>"), Err(XmlError::Malformed(_))));
    }

    #[test]
    fn parse_with_takes_elements_as_they_close() {
        let mut seen = Vec::new();
        let root = parse_with(
            "<a><r n=\"1\"><x>t</x></r><r n=\"2\"/><b/></a>",
            |open, el| {
                if el.name == "r" {
                    let path: Vec<&str> = open.iter().map(|e| e.name.as_str()).collect();
                    seen.push((path.join("/"), el.attr("n").unwrap().to_string(), el.text()));
                    None
                } else {
                    Some(el)
                }
            },
        )
        .unwrap();
        assert_eq!(
            seen,
            [
                ("a".into(), "1".into(), "t".into()),
                ("a".into(), "2".into(), String::new())
            ]
        );
        assert_eq!(
            root.elements().map(|e| e.name.as_str()).collect::<Vec<_>>(),
            ["b"]
        );
        // A consumed root: no root, and what follows it is still refused.
        assert_eq!(parse_with("<a/>", |_, _| None), Err(XmlError::NoRoot));
        assert!(matches!(
            parse_with("<a></a><b/>", |_, _| None),
            Err(XmlError::Malformed(m)) if m.contains("after the root")
        ));
        assert_eq!(
            parse_with("<a><r></r>", |_, _| None),
            Err(XmlError::Truncated("a".into()))
        );
    }

    fn nested(depth: usize, leaf: &str) -> String {
        format!("{}{leaf}{}", "<i>".repeat(depth), "</i>".repeat(depth))
    }

    #[test]
    fn nesting_is_capped_at_max_depth() {
        // MAX_DEPTH levels (the leaf an empty element one deeper is refused).
        let ok = parse(&nested(MAX_DEPTH, "x")).unwrap();
        assert_eq!(ok.text(), "x");
        assert_eq!(
            parse(&nested(MAX_DEPTH + 1, "x")),
            Err(XmlError::Malformed(format!(
                "elements nested more than {MAX_DEPTH} levels deep"
            )))
        );
        assert!(matches!(
            parse(&nested(MAX_DEPTH, "<b/>")),
            Err(XmlError::Malformed(m)) if m.contains("nested more than")
        ));
        // Far deeper than any stack holds: refused, never a stack overflow.
        assert!(matches!(
            parse(&nested(200_000, "x")),
            Err(XmlError::Malformed(m)) if m.contains("nested more than")
        ));
    }
}
