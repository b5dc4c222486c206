/*
 * Arrays held by a kernel's extension type for the life of a loaded network: each acquired once,
 * its item type checked once, so a call reads them through plain pointers; and the per-call
 * arguments, checked for their item type. Included by _search.c, _hierarchy.c and
 * _network_arrays.h.
 */
#ifndef SEALANE_HELD_H
#define SEALANE_HELD_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Whether a buffer holds `code` items ('d', 'i' or 'I') of the right width (a 4-byte C long is
 * int32 too: numpy's code for it where long has 32 bits). */
static inline int held_typed(const Py_buffer *view, char code)
{
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@') format++;
    char found = format[0] == 'l' ? 'i' : format[0] == 'L' ? 'I' : format[0];
    return found == code && format[1] == '\0' && view->itemsize == (code == 'd' ? 8 : 4);
}

/* Acquire `count` arrays from the tuple `args`, of the item types `types` ("dIi..."), into
 * `views`; `*held` counts those acquired (the caller releases them, also after a failure). */
static inline int held_acquire(PyObject *args, PyObject *kwargs, const char *what, const char *types,
                        Py_buffer *views, int *held)
{
    int count = (int)strlen(types);
    if (*held || (kwargs && PyDict_GET_SIZE(kwargs))) {
        PyErr_Format(PyExc_TypeError, "%s(*arrays) is made once, from positional arrays", what);
        return -1;
    }
    if (PyTuple_GET_SIZE(args) != count) {
        PyErr_Format(PyExc_TypeError, "%s takes %d arrays", what, count);
        return -1;
    }
    for (int k = 0; k < count; k++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, k), &views[k],
                               PyBUF_FORMAT | PyBUF_C_CONTIGUOUS))
            return -1;
        (*held)++;
        if (!held_typed(&views[k], types[k])) {
            PyErr_Format(PyExc_ValueError,
                         "%s: array %d is not %s", what, k,
                         types[k] == 'd' ? "float64" : types[k] == 'i' ? "int32" : "uint32");
            return -1;
        }
    }
    return 0;
}

static inline Py_ssize_t held_items(const Py_buffer *view) { return view->len / view->itemsize; }

/* A per-call argument of item type `code`: an array of that type, or for 'i' also the bytes the
 * kernels return. Anything else, an int64 array say, is a TypeError rather than misread. */
static inline int call_view(PyObject *object, Py_buffer *view, char code, const char *what)
{
    if (code == 'i' && PyBytes_Check(object)) return PyObject_GetBuffer(object, view, PyBUF_SIMPLE);
    if (PyObject_GetBuffer(object, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)) return -1;
    if (held_typed(view, code)) return 0;
    PyBuffer_Release(view);
    PyErr_Format(PyExc_TypeError, "%s must be %s", what,
                 code == 'd' ? "float64" : code == 'i' ? "int32" : "uint32");
    return -1;
}

/* A passage mask argument: its low 32 bits (the masks it meets have no others), as the twins
 * read any int. */
static inline int mask_arg(PyObject *object, uint32_t *mask)
{
    if (!PyLong_Check(object)) {
        PyErr_SetString(PyExc_TypeError, "blocked must be an int");
        return -1;
    }
    unsigned long long value = PyLong_AsUnsignedLongLongMask(object);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *mask = (uint32_t)value;
    return 0;
}

/* A float argument. */
static inline int double_arg(PyObject *object, double *value)
{
    *value = PyFloat_AsDouble(object);
    return *value == -1.0 && PyErr_Occurred() ? -1 : 0;
}

#endif
