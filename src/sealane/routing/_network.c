/*
 * The work after a search, on graph arrays held once: a core path unfolded to every node and edge
 * between two snapped points, and a leg's points, segment lengths and passage masks.
 *
 * A route spends more time turning its search's answer into arrays than in the search itself when
 * this is done with small numpy calls; a Network holds buffers of the graph's arrays (checked
 * once, when it is made), so each call passes only the path and a few numbers. The Python twin is
 * sealane.routing.network.NetworkPython; the tests compare the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_vincenty.h"

/* Segments shorter than this (metres) are duplicates of a point: legs.ZERO_LENGTH_M. */
static const double ZERO_LENGTH_M = 1e-6;

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

/* Whether a buffer holds `code` items ('d', 'i' or 'I') of the right width (a 4-byte C long is
 * int32 too: numpy's code for it where long has 32 bits). */
static int typed(const Py_buffer *view, char code)
{
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@') format++;
    char found = format[0] == 'l' ? 'i' : format[0] == 'L' ? 'I' : format[0];
    return found == code && format[1] == '\0' && view->itemsize == (code == 'd' ? 8 : 4);
}

/* An int32 argument: an int32 array, or bytes holding int32 values (what the search kernels
 * return). Anything else, an int64 array say, is a TypeError rather than misread. */
static int int32_view(PyObject *object, Py_buffer *view, const char *what)
{
    if (PyBytes_Check(object)) return PyObject_GetBuffer(object, view, PyBUF_SIMPLE);
    if (PyObject_GetBuffer(object, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)) return -1;
    if (typed(view, 'i')) return 0;
    PyBuffer_Release(view);
    PyErr_Format(PyExc_TypeError, "%s must be int32 (an array or the kernels' bytes)", what);
    return -1;
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
        if (!typed(view, TYPES[k]))
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

/* Nodes from just past a snapped point to core node `end` of its chain, and the edges between
 * them (toward = 1), or from just past `end` to just before the point (toward = 0): offsets into
 * the unfolded chain arrays, forwards or in their reversed second half. */
static void chain_part(const Network *self, int32_t edge, double at, int32_t end, int toward,
                       Py_ssize_t *node_from, Py_ssize_t *node_count, Py_ssize_t *edge_from,
                       Py_ssize_t *edge_count)
{
    int32_t c = I32(self, EDGE_CORE)[edge];
    Py_ssize_t k = I32(self, EDGE_POSITION)[edge], ptr = I32(self, CHAIN_PTR)[c];
    Py_ssize_t size = I32(self, CHAIN_PTR)[c + 1] - ptr, back = self->chained + ptr;
    int v_end = I32(self, CORE_V)[c] == end &&
                (I32(self, CORE_U)[c] != end || at > F64(self, CORE_LENGTH)[c] / 2.0);
    if (toward && v_end) /* N[k+1]..N[L] and E[k+1]..E[L-1] */
        *node_from = ptr + k, *node_count = size - k, *edge_from = ptr + k + 1;
    else if (toward) /* N[k]..N[0] and E[k-1]..E[0] */
        *node_from = back + size - 1 - k, *node_count = k + 1, *edge_from = back + size - k;
    else if (v_end) /* N[L-1]..N[k+1] and E[L-1]..E[k+1] */
        *node_from = back, *node_count = size - 1 - k, *edge_from = back;
    else /* N[1]..N[k] and E[0]..E[k-1] */
        *node_from = ptr, *node_count = k, *edge_from = ptr;
    *edge_count = toward ? *node_count - 1 : *node_count;
}

typedef struct {
    double *lonlat; /* points, two doubles each */
    double *length; /* one per segment */
    uint32_t *mask;
} Untrimmed;

/* Drop the empty segments of `u` (n points) into the three output bytes objects. */
static PyObject *trimmed(const Untrimmed *u, Py_ssize_t n)
{
    Py_ssize_t segments = n - 1, last_kept = 0;
    char *keep = malloc((size_t)n);
    if (!keep) return PyErr_NoMemory();
    int any = 0;
    keep[0] = 1;
    for (Py_ssize_t i = 0; i < segments; i++) {
        keep[i + 1] = u->length[i] > ZERO_LENGTH_M;
        any |= keep[i + 1];
    }
    if (!any) { /* nothing but the two ends, no distance between them */
        for (Py_ssize_t i = 1; i < n - 1; i++) keep[i] = 0;
    }
    if (!keep[n - 1]) { /* the end itself stays; the kept point before it goes */
        keep[n - 1] = 1;
        for (Py_ssize_t j = n - 2; j >= 0; j--) {
            if (keep[j]) {
                last_kept = j;
                break;
            }
        }
        if (last_kept > 0) keep[last_kept] = 0;
    }
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) kept += keep[i];
    PyObject *coords = PyBytes_FromStringAndSize(NULL, kept * 2 * (Py_ssize_t)sizeof(double));
    PyObject *lengths = PyBytes_FromStringAndSize(NULL, (kept - 1) * (Py_ssize_t)sizeof(double));
    PyObject *masks = PyBytes_FromStringAndSize(NULL, (kept - 1) * (Py_ssize_t)sizeof(uint32_t));
    PyObject *result = NULL;
    if (coords && lengths && masks) {
        double *out_lonlat = (double *)PyBytes_AS_STRING(coords);
        double *out_length = (double *)PyBytes_AS_STRING(lengths);
        uint32_t *out_mask = (uint32_t *)PyBytes_AS_STRING(masks);
        Py_ssize_t k = -1; /* the output segment being summed */
        double rest = 0.0; /* the lengths merged into it, summed apart as numpy's reduceat does */
        for (Py_ssize_t i = 0; i < n; i++) {
            if (keep[i]) {
                if (k >= 0) out_length[k] += rest;
                rest = 0.0;
                out_lonlat[2 * (k + 1)] = u->lonlat[2 * i];
                out_lonlat[2 * (k + 1) + 1] = u->lonlat[2 * i + 1];
                if (i == n - 1) break;
                k++;
                out_length[k] = !any ? 0.0 : u->length[i];
                out_mask[k] = !any ? 0 : u->mask[i];
            } else if (any) {
                rest += u->length[i];
                out_mask[k] |= u->mask[i];
            }
        }
        result = PyTuple_Pack(3, coords, lengths, masks);
    }
    Py_XDECREF(coords);
    Py_XDECREF(lengths);
    Py_XDECREF(masks);
    free(keep);
    return result;
}

/* unfold(core_path, blocked, origin_edge, origin_at, destination_edge, destination_at):
 * every node sailed from just past the origin's snapped point to just before the destination's,
 * and the edge between each two of them, as int32 bytes. Per step (t, h) of the core path, the
 * open core edge t -> h of least weight (the one the search relaxed) is read from the unfolded
 * chain arrays, forwards when t is its u end. `*_at` are metres along the snapped edge's chain. */
static PyObject *Network_unfold(Network *self, PyObject *args)
{
    Py_buffer b_path;
    PyObject *core_path;
    unsigned long blocked;
    Py_ssize_t o_edge, d_edge;
    double o_at, d_at;
    if (!ready(self)) return NULL;
    if (!PyArg_ParseTuple(args, "Okndnd", &core_path, &blocked, &o_edge, &o_at, &d_edge, &d_at))
        return NULL;
    if (int32_view(core_path, &b_path, "core_path")) return NULL;
    PyObject *result = NULL, *nodes = NULL, *edges = NULL;
    const int32_t *path = b_path.buf, *indptr = I32(self, INDPTR), *indices = I32(self, INDICES);
    const int32_t *edge_ids = I32(self, EDGE_IDS), *chain_ptr = I32(self, CHAIN_PTR);
    const int32_t *heads = I32(self, CHAIN_HEADS), *steps = I32(self, CHAIN_STEPS);
    const uint32_t *masks = U32(self, CORE_PASSAGES);
    const double *weights = F64(self, WEIGHTS);
    Py_ssize_t length = b_path.len / (Py_ssize_t)sizeof(int32_t);
    int32_t *picked = NULL;
    if (length < 1 || b_path.len % sizeof(int32_t) || o_edge < 0 || o_edge >= self->edges ||
        d_edge < 0 || d_edge >= self->edges) {
        PyErr_SetString(PyExc_ValueError, "unfold: an empty path or an edge outside the graph");
        goto done;
    }
    const int32_t *edge_core = I32(self, EDGE_CORE), *core_u = I32(self, CORE_U);
    const int32_t *core_v = I32(self, CORE_V);
    int32_t o_chain = edge_core[o_edge], d_chain = edge_core[d_edge];
    if ((core_u[o_chain] != path[0] && core_v[o_chain] != path[0]) ||
        (core_u[d_chain] != path[length - 1] && core_v[d_chain] != path[length - 1])) {
        PyErr_SetString(PyExc_ValueError, "unfold: the path does not start and end at the ends "
                                          "of the snapped edges' chains");
        goto done;
    }
    picked = malloc(sizeof(int32_t) * (size_t)length);
    if (!picked) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t first_node, first_nodes, first_edge, first_edges;
    Py_ssize_t last_node, last_nodes, last_edge, last_edges;
    chain_part(self, (int32_t)o_edge, o_at, path[0], 1, &first_node, &first_nodes, &first_edge,
               &first_edges);
    chain_part(self, (int32_t)d_edge, d_at, path[length - 1], 0, &last_node, &last_nodes,
               &last_edge, &last_edges);
    Py_ssize_t count = first_nodes + last_nodes;
    for (Py_ssize_t i = 0; i + 1 < length; i++) {
        int32_t t = path[i], h = path[i + 1], best = -1;
        if (t >= 0 && t < self->core_nodes && h >= 0 && h < self->core_nodes) {
            for (int32_t e = indptr[t]; e < indptr[t + 1]; e++) {
                if (indices[e] != h || (masks[edge_ids[e]] & blocked)) continue;
                if (best < 0 || weights[e] < weights[best]) best = e;
            }
        }
        if (best < 0) {
            PyErr_SetString(PyExc_ValueError, "unfold: no open core edge joins two path nodes");
            goto done;
        }
        picked[i] = edge_ids[best];
        count += chain_ptr[edge_ids[best] + 1] - chain_ptr[edge_ids[best]];
    }
    nodes = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(int32_t));
    edges = PyBytes_FromStringAndSize(NULL, (count - 1 > 0 ? count - 1 : 0) * (Py_ssize_t)sizeof(int32_t));
    if (!nodes || !edges) goto done;
    int32_t *out_nodes = (int32_t *)PyBytes_AS_STRING(nodes);
    int32_t *out_edges = (int32_t *)PyBytes_AS_STRING(edges);
    memcpy(out_nodes, heads + first_node, sizeof(int32_t) * (size_t)first_nodes);
    memcpy(out_edges, steps + first_edge, sizeof(int32_t) * (size_t)first_edges);
    Py_ssize_t at_node = first_nodes, at_edge = first_edges;
    for (Py_ssize_t i = 0; i + 1 < length; i++) {
        int32_t c = picked[i];
        Py_ssize_t start = chain_ptr[c], size = chain_ptr[c + 1] - chain_ptr[c];
        if (I32(self, CORE_U)[c] != path[i]) start += self->chained; /* walked backwards */
        memcpy(out_nodes + at_node, heads + start, sizeof(int32_t) * (size_t)size);
        memcpy(out_edges + at_edge, steps + start, sizeof(int32_t) * (size_t)size);
        at_node += size, at_edge += size;
    }
    memcpy(out_nodes + at_node, heads + last_node, sizeof(int32_t) * (size_t)last_nodes);
    memcpy(out_edges + at_edge, steps + last_edge, sizeof(int32_t) * (size_t)last_edges);
    result = PyTuple_Pack(2, nodes, edges);

done:
    free(picked);
    Py_XDECREF(nodes);
    Py_XDECREF(edges);
    PyBuffer_Release(&b_path);
    return result;
}

/* leg(nodes, edges, start_lon, start_lat, a_lon, a_lat, a_edge, b_lon, b_lat, b_edge, end_lon,
 * end_lat): the leg from its start to the start's snap (a, on edge a_edge), along part of that
 * edge to the first node, through `nodes` joined by `edges`, along part of b_edge to the end's
 * snap b and on to the end, as (lon/lat float64, metres float64, passage masks uint32) bytes with
 * the zero-length segments dropped as sealane.routing.legs.trim drops them: the later point of
 * each goes, except at the destination, where the earlier one goes so the leg still ends at the
 * requested point, and a dropped segment's length and mask go to the segment before it (merged
 * lengths summed first, then added, as numpy's reduceat adds runs of under nine). None when
 * Vincenty's method does not converge for a partial leg: the caller then measures with pyproj. */
static PyObject *Network_leg(Network *self, PyObject *args)
{
    Py_buffer b_nodes, b_edges;
    PyObject *node_list, *edge_list;
    double s_lon, s_lat, a_lon, a_lat, b_lon, b_lat, e_lon, e_lat;
    Py_ssize_t a_edge, b_edge;
    if (!ready(self)) return NULL;
    if (!PyArg_ParseTuple(args, "OOddddnddndd", &node_list, &edge_list, &s_lon, &s_lat, &a_lon,
                          &a_lat, &a_edge, &b_lon, &b_lat, &b_edge, &e_lon, &e_lat))
        return NULL;
    if (int32_view(node_list, &b_nodes, "nodes")) return NULL;
    if (int32_view(edge_list, &b_edges, "edges")) {
        PyBuffer_Release(&b_nodes);
        return NULL;
    }
    PyObject *result = NULL;
    Untrimmed u = {NULL, NULL, NULL};
    const double *node_lonlat = F64(self, NODE_LONLAT), *edge_length = F64(self, EDGE_LENGTH);
    const uint32_t *edge_mask = U32(self, EDGE_PASSAGES);
    const int32_t *nodes = b_nodes.buf, *edges = b_edges.buf;
    Py_ssize_t k = b_nodes.len / (Py_ssize_t)sizeof(int32_t);
    if (k < 1 || b_nodes.len % sizeof(int32_t) ||
        b_edges.len != (k - 1) * (Py_ssize_t)sizeof(int32_t) || a_edge < 0 ||
        a_edge >= self->edges || b_edge < 0 || b_edge >= self->edges) {
        PyErr_SetString(PyExc_ValueError, "leg: no node, or edges that do not join the nodes");
        goto done;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (nodes[i] < 0 || nodes[i] >= self->nodes ||
            (i + 1 < k && (edges[i] < 0 || edges[i] >= self->edges))) {
            PyErr_SetString(PyExc_ValueError, "leg: a node or edge outside the graph");
            goto done;
        }
    }
    Py_ssize_t n = k + 4; /* start, its snap, the nodes, the end's snap, the end */
    u.lonlat = malloc(sizeof(double) * 2 * (size_t)n);
    u.length = malloc(sizeof(double) * (size_t)(n - 1));
    u.mask = malloc(sizeof(uint32_t) * (size_t)(n - 1));
    if (!u.lonlat || !u.length || !u.mask) {
        PyErr_NoMemory();
        goto done;
    }
    double *p = u.lonlat;
    p[0] = s_lon, p[1] = s_lat, p[2] = a_lon, p[3] = a_lat;
    for (Py_ssize_t i = 0; i < k; i++) {
        p[4 + 2 * i] = node_lonlat[2 * nodes[i]];
        p[5 + 2 * i] = node_lonlat[2 * nodes[i] + 1];
    }
    p[2 * n - 4] = b_lon, p[2 * n - 3] = b_lat, p[2 * n - 2] = e_lon, p[2 * n - 1] = e_lat;
    u.length[0] = vincenty_inverse(s_lon, s_lat, a_lon, a_lat);
    u.length[1] = vincenty_inverse(a_lon, a_lat, p[4], p[5]);
    u.length[n - 3] = vincenty_inverse(p[2 * n - 6], p[2 * n - 5], b_lon, b_lat);
    u.length[n - 2] = vincenty_inverse(b_lon, b_lat, e_lon, e_lat);
    if (isnan(u.length[0]) || isnan(u.length[1]) || isnan(u.length[n - 3]) ||
        isnan(u.length[n - 2])) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    u.mask[0] = 0, u.mask[1] = edge_mask[a_edge];
    for (Py_ssize_t i = 0; i + 1 < k; i++) {
        u.length[2 + i] = edge_length[edges[i]];
        u.mask[2 + i] = edge_mask[edges[i]];
    }
    u.mask[n - 3] = edge_mask[b_edge], u.mask[n - 2] = 0;
    result = trimmed(&u, n);

done:
    free(u.lonlat);
    free(u.length);
    free(u.mask);
    PyBuffer_Release(&b_nodes);
    PyBuffer_Release(&b_edges);
    return result;
}

static PyMethodDef Network_methods[] = {
    {"unfold", (PyCFunction)Network_unfold, METH_VARARGS,
     "unfold(core_path, blocked, origin_edge, origin_at_m, destination_edge, destination_at_m) "
     "-> (nodes int32 bytes, edges int32 bytes)"},
    {"leg", (PyCFunction)Network_leg, METH_VARARGS,
     "leg(nodes, edges, start_lon, start_lat, a_lon, a_lat, a_edge, b_lon, b_lat, b_edge, "
     "end_lon, end_lat) -> (coords float64 bytes, lengths float64 bytes, masks uint32 bytes) "
     "| None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject NetworkType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sealane.routing._network.Network",
    .tp_doc = "Network(node_lonlat, edge_length_m, edge_passages, edge_core, edge_position, "
              "indptr, indices, weights, edge_ids, core_passages, core_u, core_v, core_length_m, "
              "chain_ptr, chain_heads, chain_steps): the graph's arrays, held for unfold and leg.",
    .tp_basicsize = sizeof(Network),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Network_init,
    .tp_dealloc = (destructor)Network_dealloc,
    .tp_methods = Network_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_network", NULL, -1, NULL};

PyMODINIT_FUNC PyInit__network(void)
{
    if (PyType_Ready(&NetworkType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Network", (PyObject *)&NetworkType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
