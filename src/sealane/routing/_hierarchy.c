/*
 * Contraction-hierarchy query over the core graph: two upward searches that meet.
 *
 * The Python twin is sealane.routing.hierarchy.climb_python; both take the same arguments and
 * must return the same cost (the tests compare them). The hierarchy is undirected: up_ptr /
 * up_head / up_weight list, per node, its edges to more important nodes, up_middle the node a
 * shortcut bypasses (-1 for a core edge), up_children the two edges it stands for and up_mask
 * its passage bits; an edge whose mask meets `blocked` is skipped (only the masked hierarchy has
 * masks, and there several edges in different passages may join one pair, so each side
 * remembers the edge that reached a node and a shortcut unpacks by its children).
 * Both searches settle nodes in order of distance, skip (stall) a node that one of its more
 * important neighbours reaches more cheaply, and stop when neither can improve the best meeting.
 * The path is unpacked into core nodes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "_heap.h"

typedef struct {
    HeapItem *items;
    Py_ssize_t size, cap;
} Heap;

/* Scratch kept between calls: per side, distance, parent node, and generation stamps. */
static double *s_dist[2];
static int32_t *s_parent[2], *s_via[2];
static uint32_t *s_reached[2], *s_settled[2];
static Heap s_heap[2];
static Py_ssize_t s_nodes = 0;
static uint32_t s_generation = 0;

static int ensure(Py_ssize_t n, Py_ssize_t heap_cap) {
    for (int side = 0; side < 2; side++) {
        if (n > s_nodes) {
            free(s_dist[side]);
            free(s_parent[side]);
            free(s_via[side]);
            free(s_reached[side]);
            free(s_settled[side]);
            s_dist[side] = malloc(sizeof(double) * n);
            s_parent[side] = malloc(sizeof(int32_t) * n);
            s_via[side] = malloc(sizeof(int32_t) * n);
            s_reached[side] = calloc(n, sizeof(uint32_t));
            s_settled[side] = calloc(n, sizeof(uint32_t));
            if (!s_dist[side] || !s_parent[side] || !s_via[side] || !s_reached[side] ||
                !s_settled[side]) {
                s_nodes = 0;
                return -1;
            }
        }
        if (heap_cap > s_heap[side].cap) {
            free(s_heap[side].items);
            s_heap[side].items = malloc(sizeof(HeapItem) * heap_cap);
            s_heap[side].cap = s_heap[side].items ? heap_cap : 0;
            if (!s_heap[side].items) return -1;
        }
        s_heap[side].size = 0;
    }
    if (n > s_nodes) {
        s_nodes = n;
        s_generation = 0;
    }
    if (++s_generation == 0) { /* wrapped: forget every stamp */
        for (int side = 0; side < 2; side++)
            for (Py_ssize_t i = 0; i < s_nodes; i++) s_reached[side][i] = s_settled[side][i] = 0;
        s_generation = 1;
    }
    return 0;
}

typedef struct {
    int32_t *nodes;
    Py_ssize_t size, cap;
} Path;

static int append(Path *p, int32_t node) {
    if (p->size == p->cap) {
        Py_ssize_t cap = p->cap ? 2 * p->cap : 256;
        int32_t *grown = realloc(p->nodes, sizeof(int32_t) * cap);
        if (!grown) return -1;
        p->nodes = grown;
        p->cap = cap;
    }
    p->nodes[p->size++] = node;
    return 0;
}

/* Append the core nodes after `a` along hierarchy edge `edge` (joining a and b), each shortcut
 * opened into the two edges it stands for, the one touching the nearer end first. At most
 * `limit` edges are opened: malformed children cannot loop for ever. */
static int unpack(const int32_t *up_head, const int32_t *up_middle, const int32_t *up_children,
                  Py_ssize_t m, int32_t a, int32_t b, int32_t edge, Path *out, Path *stack,
                  Py_ssize_t limit) {
    stack->size = 0;
    if (append(stack, a) < 0 || append(stack, b) < 0 || append(stack, edge) < 0) return -1;
    for (Py_ssize_t opened = 0; stack->size > 0; opened++) {
        int32_t e = stack->nodes[--stack->size];
        int32_t y = stack->nodes[--stack->size];
        int32_t x = stack->nodes[--stack->size];
        if (e < 0 || e >= m || opened > limit || (up_head[e] != x && up_head[e] != y)) return -2;
        int32_t middle = up_middle[e];
        if (middle < 0) {
            if (append(out, y) < 0) return -1;
            continue;
        }
        int32_t first = up_children[2 * e], second = up_children[2 * e + 1];
        if (first < 0 || first >= m || second < 0 || second >= m) return -2;
        if (up_head[first] != x) {
            int32_t t = first;
            first = second;
            second = t;
        }
        /* (x, middle) is opened before (middle, y): push it last */
        if (append(stack, middle) < 0 || append(stack, y) < 0 || append(stack, second) < 0) return -1;
        if (append(stack, x) < 0 || append(stack, middle) < 0 || append(stack, first) < 0) return -1;
    }
    return 0;
}

static PyObject *climb(PyObject *self, PyObject *args) {
    Py_buffer b_ptr, b_head, b_weight, b_middle, b_children, b_mask, b_sources, b_scosts;
    Py_buffer b_targets, b_tcosts;
    unsigned long blocked;
    PyObject *result = NULL;
    Path path = {NULL, 0, 0}, chain = {NULL, 0, 0}, stack = {NULL, 0, 0}, vias = {NULL, 0, 0};
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*ky*y*y*y*", &b_ptr, &b_head, &b_weight, &b_middle,
                          &b_children, &b_mask, &blocked, &b_sources, &b_scosts, &b_targets,
                          &b_tcosts)) {
        return NULL;
    }
    const int32_t *up_ptr = b_ptr.buf, *up_head = b_head.buf, *up_middle = b_middle.buf;
    const int32_t *up_children = b_children.buf;
    const uint32_t *up_mask = b_mask.buf;
    const double *up_weight = b_weight.buf;
    Py_ssize_t n = b_ptr.len / (Py_ssize_t)sizeof(int32_t) - 1;
    Py_ssize_t m = b_head.len / (Py_ssize_t)sizeof(int32_t);
    const int32_t *ends[2] = {b_sources.buf, b_targets.buf};
    const double *costs[2] = {b_scosts.buf, b_tcosts.buf};
    Py_ssize_t counts[2] = {b_sources.len / (Py_ssize_t)sizeof(int32_t),
                            b_targets.len / (Py_ssize_t)sizeof(int32_t)};
    if (n < 1 || b_weight.len != m * (Py_ssize_t)sizeof(double) ||
        b_middle.len != m * (Py_ssize_t)sizeof(int32_t) ||
        b_mask.len != m * (Py_ssize_t)sizeof(uint32_t) ||
        b_children.len != 2 * m * (Py_ssize_t)sizeof(int32_t) ||
        b_scosts.len != counts[0] * (Py_ssize_t)sizeof(double) ||
        b_tcosts.len != counts[1] * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "climb: array sizes do not match the hierarchy");
        goto done;
    }
    for (int side = 0; side < 2; side++) {
        for (Py_ssize_t i = 0; i < counts[side]; i++) {
            if (ends[side][i] < 0 || ends[side][i] >= n) {
                PyErr_SetString(PyExc_ValueError, "climb: end node out of range");
                goto done;
            }
        }
    }
    if (ensure(n, m + counts[0] + counts[1] + 1) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    const uint32_t gen = s_generation;
    for (int side = 0; side < 2; side++) {
        double *dist = s_dist[side];
        for (Py_ssize_t i = 0; i < counts[side]; i++) {
            int32_t v = ends[side][i];
            if (s_reached[side][v] != gen || costs[side][i] < dist[v]) {
                s_reached[side][v] = gen;
                dist[v] = costs[side][i];
                s_parent[side][v] = -1;
                s_via[side][v] = -1;
                heap_push(s_heap[side].items, &s_heap[side].size, dist[v], v);
            }
        }
    }
    double best = INFINITY;
    int32_t meet = -1;
    for (;;) {
        double top0 = s_heap[0].size ? s_heap[0].items[0].key : INFINITY;
        double top1 = s_heap[1].size ? s_heap[1].items[0].key : INFINITY;
        int side = top0 <= top1 ? 0 : 1;
        if ((side ? top1 : top0) >= best) break;
        HeapItem item = heap_pop(s_heap[side].items, &s_heap[side].size);
        int32_t x = item.node;
        double *dist = s_dist[side];
        if (s_settled[side][x] == gen || item.key > dist[x]) continue;
        s_settled[side][x] = gen;
        int other = 1 - side;
        if (s_reached[other][x] == gen && item.key + s_dist[other][x] < best) {
            best = item.key + s_dist[other][x];
            meet = x;
        }
        int stalled = 0;
        for (int32_t e = up_ptr[x]; e < up_ptr[x + 1]; e++) {
            int32_t y = up_head[e];
            if (up_mask[e] & blocked) continue;
            if (s_reached[side][y] == gen && dist[y] + up_weight[e] < item.key) {
                stalled = 1;
                break;
            }
        }
        if (stalled) continue;
        for (int32_t e = up_ptr[x]; e < up_ptr[x + 1]; e++) {
            int32_t y = up_head[e];
            double candidate = item.key + up_weight[e];
            if (up_mask[e] & blocked) continue;
            if (s_reached[side][y] != gen || candidate < dist[y]) {
                s_reached[side][y] = gen;
                dist[y] = candidate;
                s_parent[side][y] = x;
                s_via[side][y] = e;
                heap_push(s_heap[side].items, &s_heap[side].size, candidate, y);
            }
        }
    }
    if (meet < 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    /* hierarchy nodes, each with the edge from the one before: the source side climbed back
     * from `meet` and reversed (the edge that reached a node leads to it), then the target side
     * (the edge that reached the previous node leads on to the next) */
    for (int32_t v = meet; v >= 0; v = s_parent[0][v])
        if (append(&chain, v) < 0 || append(&vias, s_via[0][v]) < 0) goto nomem;
    for (Py_ssize_t i = 0, j = chain.size - 1; i < j; i++, j--) {
        int32_t t = chain.nodes[i];
        chain.nodes[i] = chain.nodes[j];
        chain.nodes[j] = t;
    }
    for (Py_ssize_t i = 0, j = vias.size - 1; i < j; i++, j--) {
        int32_t t = vias.nodes[i];
        vias.nodes[i] = vias.nodes[j];
        vias.nodes[j] = t;
    }
    for (int32_t v = meet; s_parent[1][v] >= 0; v = s_parent[1][v])
        if (append(&chain, s_parent[1][v]) < 0 || append(&vias, s_via[1][v]) < 0) goto nomem;
    /* now vias[i] joins chain[i - 1] and chain[i] (vias[0] is the source side's -1) */
    if (append(&path, chain.nodes[0]) < 0) goto nomem;
    for (Py_ssize_t i = 0; i + 1 < chain.size; i++) {
        int status = unpack(up_head, up_middle, up_children, m, chain.nodes[i],
                            chain.nodes[i + 1], vias.nodes[i + 1], &path, &stack, 4 * m + 4);
        if (status == -1) goto nomem;
        if (status == -2) {
            PyErr_SetString(PyExc_ValueError, "climb: a path step is not a hierarchy edge");
            goto done;
        }
    }
    PyObject *nodes =
        PyBytes_FromStringAndSize((const char *)path.nodes, path.size * (Py_ssize_t)sizeof(int32_t));
    if (!nodes) goto done;
    result = Py_BuildValue("(dN)", best, nodes);
    goto done;
nomem:
    PyErr_NoMemory();
done:
    free(path.nodes);
    free(chain.nodes);
    free(stack.nodes);
    free(vias.nodes);
    PyBuffer_Release(&b_ptr);
    PyBuffer_Release(&b_head);
    PyBuffer_Release(&b_weight);
    PyBuffer_Release(&b_middle);
    PyBuffer_Release(&b_children);
    PyBuffer_Release(&b_mask);
    PyBuffer_Release(&b_sources);
    PyBuffer_Release(&b_scosts);
    PyBuffer_Release(&b_targets);
    PyBuffer_Release(&b_tcosts);
    return result;
}

static PyMethodDef methods[] = {
    {"climb", climb, METH_VARARGS,
     "climb(up_ptr, up_head, up_weight, up_middle, up_children, up_mask, blocked, sources, "
     "source_costs, targets, target_costs) -> (cost, core path int32 bytes) | None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_hierarchy", NULL, -1, methods};

PyMODINIT_FUNC PyInit__hierarchy(void) { return PyModule_Create(&module); }
