/*
 * The graph arrays a Network holds (see _network.c): which ones, of which item type, and the
 * checks made once when it is made (types, sizes, every index in range), so that no call
 * reads outside them. Included by _network.c only; the checks of an array's type are
 * _held.h's, shared with the search kernels.
 */
#ifndef SEALANE_NETWORK_ARRAYS_H
#define SEALANE_NETWORK_ARRAYS_H

#include <Python.h>
#include <stdint.h>

#include "_held.h"

/* The held arrays, in the constructor's order, with their item type ('d', 'i' or 'I'). */
enum {
    NODE_LONLAT, EDGE_LENGTH, EDGE_PASSAGES, EDGE_CORE, EDGE_POSITION, INDPTR, INDICES, WEIGHTS,
    EDGE_IDS, CORE_PASSAGES, CORE_U, CORE_V, CORE_LENGTH, CHAIN_PTR, CHAIN_HEADS, CHAIN_STEPS,
    ARRAYS
};
static const char TYPES[ARRAYS + 1] = "ddIiiiidiIiidiii";

typedef struct {
    PyObject_HEAD
    Py_buffer views[ARRAYS];
    int held;  /* views acquired so far */
    int valid; /* every view held and checked: only then may a call read them */
    Py_ssize_t nodes, edges, core_nodes, core_edges, chains, chained;
} Network;

#define I32(self, k) ((const int32_t *)(self)->views[k].buf)
#define F64(self, k) ((const double *)(self)->views[k].buf)
#define U32(self, k) ((const uint32_t *)(self)->views[k].buf)

static Py_ssize_t items(const Network *self, int k) { return self->views[k].len / self->views[k].itemsize; }

static int bad(const char *what)
{
    PyErr_Format(PyExc_ValueError, "Network: %s", what);
    return -1;
}

/* Whether the arrays are held and checked (a Network made by __new__ alone, or whose __init__
 * failed, may not be read). */
static int ready(const Network *self)
{
    if (self->valid) return 1;
    PyErr_SetString(PyExc_RuntimeError, "Network: made without its arrays");
    return 0;
}

/* An int32 argument: an int32 array, or bytes holding int32 values (what the search kernels
 * return); anything else, an int64 array say, is a TypeError rather than misread. */
static int int32_view(PyObject *object, Py_buffer *view, const char *what)
{
    return call_view(object, view, 'i', what);
}

/* Every index in `k` lies in [0, bound). */
static int within(const Network *self, int k, Py_ssize_t bound)
{
    const int32_t *a = I32(self, k);
    for (Py_ssize_t i = 0, n = items(self, k); i < n; i++)
        if (a[i] < 0 || a[i] >= bound) return 0;
    return 1;
}

/* Sizes and indices agree with one another, so no call needs to check the graph again. */
static int check(Network *self)
{
    self->nodes = items(self, NODE_LONLAT) / 2;
    self->edges = items(self, EDGE_LENGTH);
    self->core_nodes = items(self, INDPTR) - 1;
    self->core_edges = items(self, INDICES);
    self->chains = items(self, CORE_U);
    self->chained = items(self, CHAIN_HEADS) / 2;
    if (items(self, NODE_LONLAT) % 2 || items(self, EDGE_PASSAGES) != self->edges ||
        items(self, EDGE_CORE) != self->edges || items(self, EDGE_POSITION) != self->edges)
        return bad("edge arrays of different lengths");
    if (self->core_nodes < 1 || items(self, WEIGHTS) != self->core_edges ||
        items(self, EDGE_IDS) != self->core_edges)
        return bad("core adjacency arrays of different lengths");
    if (items(self, CORE_PASSAGES) != self->chains || items(self, CORE_V) != self->chains ||
        items(self, CORE_LENGTH) != self->chains || items(self, CHAIN_PTR) != self->chains + 1 ||
        items(self, CHAIN_STEPS) != 2 * self->chained || items(self, CHAIN_HEADS) % 2)
        return bad("chain arrays of different lengths");
    const int32_t *indptr = I32(self, INDPTR), *chain_ptr = I32(self, CHAIN_PTR);
    if (indptr[0] != 0 || indptr[self->core_nodes] != self->core_edges || chain_ptr[0] != 0 ||
        chain_ptr[self->chains] != self->chained)
        return bad("pointer arrays do not span their rows");
    for (Py_ssize_t i = 0; i < self->core_nodes; i++)
        if (indptr[i] > indptr[i + 1]) return bad("indptr decreases");
    for (Py_ssize_t c = 0; c < self->chains; c++)
        if (chain_ptr[c] >= chain_ptr[c + 1]) return bad("a chain without edges");
    if (!within(self, INDICES, self->core_nodes) || !within(self, CORE_U, self->core_nodes) ||
        !within(self, CORE_V, self->core_nodes) || !within(self, EDGE_IDS, self->chains) ||
        !within(self, EDGE_CORE, self->chains) || !within(self, CHAIN_HEADS, self->nodes) ||
        !within(self, CHAIN_STEPS, self->edges))
        return bad("an index outside its array");
    const int32_t *edge_core = I32(self, EDGE_CORE), *position = I32(self, EDGE_POSITION);
    for (Py_ssize_t e = 0; e < self->edges; e++) {
        int32_t c = edge_core[e];
        if (position[e] < 0 || position[e] >= chain_ptr[c + 1] - chain_ptr[c])
            return bad("an edge position outside its chain");
    }
    return 0;
}

static int Network_init(Network *self, PyObject *args, PyObject *kwargs)
{
    if (self->held || (kwargs && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError, "Network(*arrays) is made once, from positional arrays");
        return -1;
    }
    if (PyTuple_GET_SIZE(args) != ARRAYS) {
        PyErr_Format(PyExc_TypeError, "Network takes %d arrays", ARRAYS);
        return -1;
    }
    for (int k = 0; k < ARRAYS; k++) {
        Py_buffer *view = &self->views[k];
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, k), view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS))
            return -1;
        self->held++;
        if (!held_typed(view, TYPES[k]))
            return bad("an array of the wrong type (float64, int32 or uint32 expected)");
    }
    if (check(self)) return -1;
    self->valid = 1;
    return 0;
}

static void Network_dealloc(Network *self)
{
    for (int k = 0; k < self->held; k++) PyBuffer_Release(&self->views[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#endif
