//! The spanned surface model of the deriving struct: its name, generics and fields.

use super::ctxt::Errors;
use syn::{Attribute, Fields, Generics, Ident, Item, Type};

/// A named field of the struct; `numeric` fields (`f64`) may be used as parameters.
pub(crate) struct Field {
    /// The field name.
    pub(crate) name: Ident,
    /// The field's type, for error messages.
    pub(crate) ty: Type,
    /// Whether the type is `f64` (written `f64`, `core::primitive::f64` or `std::primitive::f64`).
    pub(crate) numeric: bool,
}

/// The struct a problem trait is derived for.
pub(crate) struct Input<'a> {
    /// The struct's name.
    pub(crate) ident: &'a Ident,
    /// Its generics, carried over to the impl.
    pub(crate) generics: &'a Generics,
    /// Its named fields (empty for unit and tuple structs).
    pub(crate) fields: Vec<Field>,
    /// Its attributes, where the helper attribute is looked up.
    pub(crate) attrs: &'a [Attribute],
}

impl<'a> Input<'a> {
    /// Reads the derive input (a struct; syn's `full` item parser is used, so `derive` is not
    /// needed as a syn feature); records an error for enums and unions. `None` for items a derive
    /// cannot be attached to.
    pub(crate) fn from_syn(item: &'a Item, derive: &str, errors: &mut Errors) -> Option<Self> {
        let (ident, generics, attrs, fields) = match item {
            Item::Struct(s) => (&s.ident, &s.generics, &s.attrs, named_fields(&s.fields)),
            Item::Enum(e) => (&e.ident, &e.generics, &e.attrs, Vec::new()),
            Item::Union(u) => (&u.ident, &u.generics, &u.attrs, Vec::new()),
            _ => return None,
        };
        if !matches!(item, Item::Struct(_)) {
            errors.spanned(ident, format!("`{derive}` can only be derived for structs"));
        }
        Some(Input {
            ident,
            generics,
            fields,
            attrs,
        })
    }
}

/// The named fields (none for unit and tuple structs).
fn named_fields(fields: &Fields) -> Vec<Field> {
    let Fields::Named(named) = fields else {
        return Vec::new();
    };
    named
        .named
        .iter()
        .filter_map(|f| {
            f.ident.clone().map(|name| Field {
                name,
                ty: f.ty.clone(),
                numeric: is_f64(&f.ty),
            })
        })
        .collect()
}

/// `f64`, `core::primitive::f64` or `std::primitive::f64` (with or without leading `::`).
fn is_f64(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    if path.qself.is_some() {
        return false;
    }
    let segments: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let arguments_free = path.path.segments.iter().all(|s| s.arguments.is_none());
    arguments_free
        && match segments.as_slice() {
            [f] => f == "f64" && path.path.leading_colon.is_none(),
            [krate, primitive, f] => {
                (krate == "core" || krate == "std") && primitive == "primitive" && f == "f64"
            }
            _ => false,
        }
}
