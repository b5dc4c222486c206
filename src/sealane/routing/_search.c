/*
 * A* shortest path over the sea-lane graph's core in compressed sparse row form.
 *
 * A Core holds the core graph's arrays for the life of the loaded network (acquired and checked
 * once: indptr, indices, weights, edge_ids, edge_masks, xyz, and the bound's scale) and answers
 * astar(blocked, sources, source_costs, targets, target_costs, goal_lon, goal_lat, landmarks).
 * Its Python twin is sealane.routing.search.CorePython; both must return the same answers (the
 * tests compare them). Sources and targets carry offsets (metres from the snapped start / to
 * the snapped goal along their edge), edges whose passage mask meets `blocked` are skipped, and
 * the heuristic is the larger of h_scale * central angle to the goal (consistent while h_scale
 * is below the smallest radius of curvature) and the landmark bounds |d(L, node) - d(L, goal)|,
 * d(L, goal) taken as the least over the targets of d(L, target) + its cost; the landmark table
 * (core nodes x K, K may be 0) comes from a graph with at least the edges searched here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "_heap.h"
#include "_held.h"

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

/* The held arrays, in the constructor's order, with their item types. */
enum { INDPTR, INDICES, WEIGHTS, EDGE_IDS, EDGE_MASKS, XYZ, CORE_ARRAYS };
static const char CORE_TYPES[CORE_ARRAYS + 1] = "iidiId";

typedef struct {
    PyObject_HEAD
    Py_buffer views[CORE_ARRAYS];
    int held;  /* views acquired so far */
    int valid; /* every view held and checked: only then may a call read them */
    Py_ssize_t n, m, chains;
    double h_scale;
    /* scratch reused across calls (the GIL is held throughout one): a node's cost and
     * predecessor are valid only while its stamp equals the call's generation */
    double *cost;
    int32_t *pred;
    uint32_t *reached, *closed;
    HeapItem *heap;
    Py_ssize_t heap_cap;
    uint32_t generation;
} Core;

static int bad(const char *what)
{
    PyErr_Format(PyExc_ValueError, "Core: %s", what);
    return -1;
}

/* Sizes and indices agree, so no call reads outside the arrays. */
static int check(Core *self)
{
    Py_ssize_t n = held_items(&self->views[INDPTR]) - 1, m = held_items(&self->views[INDICES]);
    Py_ssize_t chains = held_items(&self->views[EDGE_MASKS]);
    const int32_t *indptr = self->views[INDPTR].buf, *indices = self->views[INDICES].buf;
    const int32_t *edge_ids = self->views[EDGE_IDS].buf;
    if (n < 1 || held_items(&self->views[WEIGHTS]) != m ||
        held_items(&self->views[EDGE_IDS]) != m || held_items(&self->views[XYZ]) != 3 * n)
        return bad("arrays of different lengths");
    if (indptr[0] != 0 || indptr[n] != m) return bad("indptr does not span the edges");
    for (Py_ssize_t i = 0; i < n; i++)
        if (indptr[i] > indptr[i + 1]) return bad("indptr decreases");
    for (Py_ssize_t e = 0; e < m; e++)
        if (indices[e] < 0 || indices[e] >= n || edge_ids[e] < 0 || edge_ids[e] >= chains)
            return bad("an index outside its array");
    self->n = n;
    self->m = m;
    self->chains = chains;
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t count = PyTuple_GET_SIZE(args);
    if (count != CORE_ARRAYS + 1) {
        PyErr_SetString(PyExc_TypeError, "Core(indptr, indices, weights, edge_ids, edge_masks, "
                                         "xyz, h_scale)");
        return -1;
    }
    double h_scale = PyFloat_AsDouble(PyTuple_GET_ITEM(args, CORE_ARRAYS));
    if (h_scale == -1.0 && PyErr_Occurred()) return -1;
    PyObject *arrays = PyTuple_GetSlice(args, 0, CORE_ARRAYS);
    if (!arrays) return -1;
    int failed = held_acquire(arrays, kwargs, "Core", CORE_TYPES, self->views, &self->held);
    Py_DECREF(arrays);
    if (failed || check(self)) return -1;
    self->h_scale = h_scale;
    self->cost = PyMem_Malloc(sizeof(double) * (size_t)self->n);
    self->pred = PyMem_Malloc(sizeof(int32_t) * (size_t)self->n);
    self->reached = PyMem_Calloc((size_t)self->n, sizeof(uint32_t));
    self->closed = PyMem_Calloc((size_t)self->n, sizeof(uint32_t));
    if (!self->cost || !self->pred || !self->reached || !self->closed) {
        PyErr_NoMemory();
        return -1;
    }
    self->valid = 1;
    return 0;
}

static void Core_dealloc(Core *self)
{
    for (int k = 0; k < self->held; k++) PyBuffer_Release(&self->views[k]);
    PyMem_Free(self->cost);
    PyMem_Free(self->pred);
    PyMem_Free(self->reached);
    PyMem_Free(self->closed);
    PyMem_Free(self->heap);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Room for `cap` heap items and the next generation of stamps (all forgotten on wrapping). */
static int prepare(Core *self, Py_ssize_t cap)
{
    if (cap > self->heap_cap) {
        HeapItem *grown = PyMem_Realloc(self->heap, sizeof(HeapItem) * (size_t)cap);
        if (!grown) return -1;
        self->heap = grown;
        self->heap_cap = cap;
    }
    if (++self->generation == 0) {
        for (Py_ssize_t i = 0; i < self->n; i++) self->reached[i] = self->closed[i] = 0;
        self->generation = 1;
    }
    return 0;
}

/* The search from the sources: the node at which the best target is closed (-1: none). */
static int32_t search(Core *self, const Bound *bound, uint32_t blocked, const int32_t *sources,
                      const double *source_costs, Py_ssize_t n_sources, const int32_t *targets,
                      const double *target_costs, Py_ssize_t n_targets, double *best_cost)
{
    const uint32_t gen = self->generation;
    const int32_t *indptr = self->views[INDPTR].buf, *indices = self->views[INDICES].buf;
    const int32_t *edge_ids = self->views[EDGE_IDS].buf;
    const double *weights = self->views[WEIGHTS].buf;
    const uint32_t *masks = self->views[EDGE_MASKS].buf;
    double *g = self->cost;
    int32_t *pred = self->pred;
    uint32_t *reached = self->reached, *closed = self->closed;
    HeapItem *heap = self->heap;
    Py_ssize_t size = 0;
    for (Py_ssize_t i = 0; i < n_sources; i++) {
        int32_t s = sources[i];
        if (reached[s] != gen || source_costs[i] < g[s]) {
            reached[s] = gen;
            g[s] = source_costs[i];
            pred[s] = -1;
            heap_push(heap, &size, g[s] + lower_bound(bound, s), s);
        }
    }
    double best = INFINITY;
    int32_t best_node = -1;
    while (size > 0) {
        HeapItem item = heap_pop(heap, &size);
        if (item.key >= best) break;
        int32_t u = item.node;
        if (closed[u] == gen) continue;
        closed[u] = gen;
        for (Py_ssize_t t = 0; t < n_targets; t++) {
            if (targets[t] == u && g[u] + target_costs[t] < best) {
                best = g[u] + target_costs[t];
                best_node = u;
            }
        }
        for (int32_t e = indptr[u]; e < indptr[u + 1]; e++) {
            if (masks[edge_ids[e]] & blocked) continue;
            int32_t v = indices[e];
            if (closed[v] == gen) continue;
            double candidate = g[u] + weights[e];
            if (reached[v] != gen || candidate < g[v]) {
                reached[v] = gen;
                g[v] = candidate;
                pred[v] = u;
                heap_push(heap, &size, candidate + lower_bound(bound, v), v);
            }
        }
    }
    *best_cost = best;
    return best_node;
}

static PyObject *Core_astar(Core *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!self->valid) {
        PyErr_SetString(PyExc_RuntimeError, "Core: made without its arrays");
        return NULL;
    }
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "astar(blocked, sources, source_costs, targets, "
                                         "target_costs, goal_lon, goal_lat, landmarks)");
        return NULL;
    }
    uint32_t blocked;
    double goal_lon, goal_lat;
    if (mask_arg(args[0], &blocked) || double_arg(args[5], &goal_lon) ||
        double_arg(args[6], &goal_lat))
        return NULL;
    Py_buffer views[5];
    static const char codes[5] = {'i', 'd', 'i', 'd', 'd'};
    static const char *names[5] = {"sources", "source_costs", "targets", "target_costs",
                                   "landmarks"};
    PyObject *const inputs[5] = {args[1], args[2], args[3], args[4], args[7]};
    int got = 0;
    double *goal_landmarks = NULL;
    PyObject *result = NULL;
    for (; got < 5; got++)
        if (call_view(inputs[got], &views[got], codes[got], names[got])) goto done;
    const int32_t *sources = views[0].buf, *targets = views[2].buf;
    const double *source_costs = views[1].buf, *target_costs = views[3].buf;
    Py_ssize_t n_sources = views[0].len / 4, n_targets = views[2].len / 4;
    Py_ssize_t k = views[4].ndim == 2 ? views[4].shape[1] : -1;
    if (views[1].len != n_sources * 8 || views[3].len != n_targets * 8) {
        PyErr_SetString(PyExc_ValueError, "astar: an end without its cost, or a cost too many");
        goto done;
    }
    if (k < 0 || views[4].shape[0] != self->n) {
        PyErr_SetString(PyExc_ValueError, "astar: landmarks must be (core nodes, K)");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_sources; i++)
        if (sources[i] < 0 || sources[i] >= self->n) {
            PyErr_SetString(PyExc_ValueError, "astar: source node out of range");
            goto done;
        }
    for (Py_ssize_t i = 0; i < n_targets; i++)
        if (targets[i] < 0 || targets[i] >= self->n) {
            PyErr_SetString(PyExc_ValueError, "astar: target node out of range");
            goto done;
        }
    const double *landmarks = views[4].buf;
    goal_landmarks = PyMem_Malloc(sizeof(double) * (size_t)(k ? k : 1));
    if (!goal_landmarks || prepare(self, self->m + n_sources + 1)) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < k; i++) { /* the least over the targets, NaN ignored as fmin */
        double least = NAN;
        for (Py_ssize_t t = 0; t < n_targets; t++)
            least = fmin(least, landmarks[targets[t] * k + i] + target_costs[t]);
        goal_landmarks[i] = least;
    }
    double lon = goal_lon * (M_PI / 180.0), lat = goal_lat * (M_PI / 180.0);
    Bound bound = {self->views[XYZ].buf,
                   {cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)},
                   self->h_scale,
                   landmarks,
                   goal_landmarks,
                   k};
    double best;
    int32_t best_node = search(self, &bound, blocked, sources, source_costs, n_sources, targets,
                               target_costs, n_targets, &best);
    if (best_node < 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    Py_ssize_t length = 0;
    for (int32_t v = best_node; v >= 0; v = self->pred[v]) length++;
    PyObject *path = PyBytes_FromStringAndSize(NULL, length * (Py_ssize_t)sizeof(int32_t));
    if (!path) goto done;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(path);
    Py_ssize_t at = length;
    for (int32_t v = best_node; v >= 0; v = self->pred[v]) out[--at] = v;
    result = Py_BuildValue("(dN)", best, path);
done:
    PyMem_Free(goal_landmarks);
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef Core_methods[] = {
    {"astar", (PyCFunction)(void (*)(void))Core_astar, METH_FASTCALL,
     "astar(blocked, sources, source_costs, targets, target_costs, goal_lon, goal_lat, "
     "landmarks) -> (cost, core path int32 bytes) | None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sealane.routing._search.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Core(indptr, indices, weights, edge_ids, edge_masks, xyz, h_scale): the core "
              "graph's arrays, held and checked once",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", NULL, -1, NULL};

PyMODINIT_FUNC PyInit__search(void)
{
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
