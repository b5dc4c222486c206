/*
 * A* shortest path over the sea-lane graph in compressed sparse row form.
 *
 * The Python twin of this function is sealane.routing.search.astar_python; both take the same
 * arguments and must return the same answers (the tests compare them). Sources and targets carry
 * offsets (metres from the snapped start / to the snapped goal along their edge), edges whose
 * passage mask meets `blocked` are skipped, and the heuristic is the larger of h_scale * central
 * angle to the goal (consistent while h_scale is below the smallest radius of curvature) and the
 * landmark bounds, whose distances come from a graph with at least the edges searched here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "_heap.h"

typedef struct {
    const double *xyz;
    double goal[3];
    double scale;
    const double *landmarks; /* node-major: landmarks[node * k + i] */
    const double *goal_landmarks;
    Py_ssize_t k;
} Bound;

/* Lower bound on the metres from `node` to the goal: the larger of the great-circle bound and the
 * landmark (ALT) bounds |d(L, node) - d(L, goal)|. */
static double lower_bound(const Bound *b, int32_t node) {
    double dx = b->xyz[3 * node] - b->goal[0];
    double dy = b->xyz[3 * node + 1] - b->goal[1];
    double dz = b->xyz[3 * node + 2] - b->goal[2];
    double half_chord = 0.5 * sqrt(dx * dx + dy * dy + dz * dz);
    if (half_chord > 1.0) half_chord = 1.0;
    double best = b->scale * 2.0 * asin(half_chord);
    const double *row = b->landmarks + node * b->k;
    for (Py_ssize_t i = 0; i < b->k; i++) {
        double gap = fabs(row[i] - b->goal_landmarks[i]);
        if (gap > best) best = gap;
    }
    return best;
}

/* Scratch space reused across calls (the GIL is held throughout a call, so one set suffices).
 * A node's g/pred values are valid only when its stamp equals the current generation, so no
 * per-call initialisation proportional to the graph size is needed. */
static double *g_cost = NULL;
static int32_t *g_pred = NULL;
static uint32_t *g_reached = NULL;
static uint32_t *g_closed = NULL;
static HeapItem *g_heap = NULL;
static Py_ssize_t g_nodes = 0, g_heap_cap = 0;
static uint32_t g_generation = 0;

static int ensure_scratch(Py_ssize_t n, Py_ssize_t heap_cap) {
    if (n > g_nodes) {
        free(g_cost);
        free(g_pred);
        free(g_reached);
        free(g_closed);
        g_cost = malloc(sizeof(double) * n);
        g_pred = malloc(sizeof(int32_t) * n);
        g_reached = calloc(n, sizeof(uint32_t));
        g_closed = calloc(n, sizeof(uint32_t));
        g_nodes = (g_cost && g_pred && g_reached && g_closed) ? n : 0;
        g_generation = 0;
        if (!g_nodes) return -1;
    }
    if (heap_cap > g_heap_cap) {
        free(g_heap);
        g_heap = malloc(sizeof(HeapItem) * heap_cap);
        g_heap_cap = g_heap ? heap_cap : 0;
        if (!g_heap) return -1;
    }
    if (++g_generation == 0) { /* wrapped: forget every stamp */
        for (Py_ssize_t i = 0; i < g_nodes; i++) g_reached[i] = g_closed[i] = 0;
        g_generation = 1;
    }
    return 0;
}

static PyObject *astar(PyObject *self, PyObject *args) {
    Py_buffer b_indptr, b_indices, b_weights, b_edge_ids, b_masks, b_xyz;
    Py_buffer b_sources, b_source_costs, b_targets, b_target_costs, b_landmarks, b_goal_landmarks;
    unsigned long blocked;
    Bound bound;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "y*y*y*y*y*kdy*y*y*y*y*dddy*y*",
                          &b_indptr, &b_indices, &b_weights, &b_edge_ids, &b_masks, &blocked,
                          &bound.scale, &b_xyz, &b_sources, &b_source_costs, &b_targets,
                          &b_target_costs, &bound.goal[0], &bound.goal[1], &bound.goal[2],
                          &b_landmarks, &b_goal_landmarks)) {
        return NULL;
    }
    bound.xyz = b_xyz.buf;
    bound.landmarks = b_landmarks.buf;
    bound.goal_landmarks = b_goal_landmarks.buf;
    bound.k = b_goal_landmarks.len / (Py_ssize_t)sizeof(double);
    const int32_t *indptr = b_indptr.buf;
    const int32_t *indices = b_indices.buf;
    const double *weights = b_weights.buf;
    const int32_t *edge_ids = b_edge_ids.buf;
    const uint32_t *masks = b_masks.buf;
    const int32_t *sources = b_sources.buf;
    const double *source_costs = b_source_costs.buf;
    const int32_t *targets = b_targets.buf;
    const double *target_costs = b_target_costs.buf;
    Py_ssize_t n = b_indptr.len / (Py_ssize_t)sizeof(int32_t) - 1;
    Py_ssize_t m = b_indices.len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t n_sources = b_sources.len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t n_targets = b_targets.len / (Py_ssize_t)sizeof(int32_t);

    Py_ssize_t k_landmarks = bound.k;
    if (n < 1 || b_weights.len != m * (Py_ssize_t)sizeof(double) ||
        b_edge_ids.len != m * (Py_ssize_t)sizeof(int32_t) ||
        b_xyz.len != 3 * n * (Py_ssize_t)sizeof(double) ||
        b_landmarks.len != n * k_landmarks * (Py_ssize_t)sizeof(double) ||
        b_source_costs.len != n_sources * (Py_ssize_t)sizeof(double) ||
        b_target_costs.len != n_targets * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "astar: array sizes do not match the graph");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_sources; i++) {
        if (sources[i] < 0 || sources[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "astar: source node out of range");
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < n_targets; i++) {
        if (targets[i] < 0 || targets[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "astar: target node out of range");
            goto done;
        }
    }
    if (ensure_scratch(n, m + n_sources + 1) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    const uint32_t gen = g_generation;
    double *g = g_cost;
    int32_t *pred = g_pred;
    HeapItem *heap = g_heap;
    Py_ssize_t size = 0;
    for (Py_ssize_t i = 0; i < n_sources; i++) {
        int32_t s = sources[i];
        if (g_reached[s] != gen || source_costs[i] < g[s]) {
            g_reached[s] = gen;
            g[s] = source_costs[i];
            pred[s] = -1;
            heap_push(heap, &size, g[s] + lower_bound(&bound, s), s);
        }
    }
    double best = INFINITY;
    int32_t best_node = -1;
    while (size > 0) {
        HeapItem item = heap_pop(heap, &size);
        if (item.key >= best) break;
        int32_t u = item.node;
        if (g_closed[u] == gen) continue;
        g_closed[u] = gen;
        for (Py_ssize_t t = 0; t < n_targets; t++) {
            if (targets[t] == u && g[u] + target_costs[t] < best) {
                best = g[u] + target_costs[t];
                best_node = u;
            }
        }
        for (int32_t e = indptr[u]; e < indptr[u + 1]; e++) {
            if (masks[edge_ids[e]] & blocked) continue;
            int32_t v = indices[e];
            if (g_closed[v] == gen) continue;
            double candidate = g[u] + weights[e];
            if (g_reached[v] != gen || candidate < g[v]) {
                g_reached[v] = gen;
                g[v] = candidate;
                pred[v] = u;
                heap_push(heap, &size, candidate + lower_bound(&bound, v), v);
            }
        }
    }
    if (best_node < 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    Py_ssize_t length = 0;
    for (int32_t v = best_node; v >= 0; v = pred[v]) length++;
    PyObject *path = PyBytes_FromStringAndSize(NULL, length * (Py_ssize_t)sizeof(int32_t));
    if (!path) goto done;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(path);
    Py_ssize_t k = length;
    for (int32_t v = best_node; v >= 0; v = pred[v]) out[--k] = v;
    result = Py_BuildValue("(dN)", best, path);

done:
    PyBuffer_Release(&b_indptr);
    PyBuffer_Release(&b_indices);
    PyBuffer_Release(&b_weights);
    PyBuffer_Release(&b_edge_ids);
    PyBuffer_Release(&b_masks);
    PyBuffer_Release(&b_xyz);
    PyBuffer_Release(&b_sources);
    PyBuffer_Release(&b_source_costs);
    PyBuffer_Release(&b_targets);
    PyBuffer_Release(&b_target_costs);
    PyBuffer_Release(&b_landmarks);
    PyBuffer_Release(&b_goal_landmarks);
    return result;
}


static PyMethodDef methods[] = {
    {"astar", astar, METH_VARARGS,
     "astar(indptr, indices, weights, edge_ids, edge_masks, blocked, h_scale, xyz, sources, "
     "source_costs, targets, target_costs, gx, gy, gz, landmarks, goal_landmarks) "
     "-> (cost, path int32 bytes) | None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", NULL, -1, methods};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&module); }
