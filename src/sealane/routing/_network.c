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

#include "_network_arrays.h"
#include "_trim.h"

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
