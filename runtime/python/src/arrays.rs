//! Arrays in and out: any array-like (a list, a tuple, a numpy array of any numeric type) read
//! through `numpy.asarray(x, dtype=float64)`, and rows of `f64` written as numpy arrays.

use crate::errors;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// An array read as `float64`: its shape and its entries in C order.
pub struct Floats {
    /// The shape.
    pub shape: Vec<usize>,
    /// The entries, row-major.
    pub values: Vec<f64>,
}

/// `value` as a `float64` array; an error naming `what` when numpy cannot make one of it.
pub fn floats(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Floats> {
    let numpy = value.py().import("numpy")?;
    let array = numpy
        .call_method1("ascontiguousarray", (value, "float64"))
        .map_err(|e| errors::value(what, format!("not an array of numbers ({e})")))?;
    let array = array
        .cast::<PyArrayDyn<f64>>()
        .map_err(|e| errors::value(what, e.to_string()))?;
    let readonly = array.readonly();
    let values = readonly
        .as_slice()
        .map_err(|e| errors::value(what, e.to_string()))?
        .to_vec();
    Ok(Floats {
        shape: array.shape().to_vec(),
        values,
    })
}

/// `value` as a vector (a 1-D array); an error naming `what` otherwise.
pub fn vector(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f64>> {
    let array = floats(value, what)?;
    match array.shape.len() {
        1 => Ok(array.values),
        n => Err(errors::value(
            what,
            format!("must be a 1-D array, found {n} dimensions"),
        )),
    }
}

/// The rows `rows`, each of `width` entries, as an `n × width` array.
pub fn matrix<'py>(
    py: Python<'py>,
    rows: &[Vec<f64>],
    width: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let values: Vec<f64> = rows.iter().flatten().copied().collect();
    rows_of(py, rows.len(), values, width)
}

/// The row-major `values` as an array of `rows` rows of `width` entries; an error if they do
/// not have `rows · width` entries.
pub fn rows_of(
    py: Python<'_>,
    rows: usize,
    values: Vec<f64>,
    width: usize,
) -> PyResult<Bound<'_, PyArray2<f64>>> {
    let array = Array2::from_shape_vec((rows, width), values)
        .map_err(|e| errors::value("result", format!("rows of unequal length ({e})")))?;
    Ok(array.into_pyarray(py))
}
