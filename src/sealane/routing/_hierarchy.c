/*
 * Contraction-hierarchy query over the core graph: two upward searches that meet.
 *
 * A Hierarchy holds one hierarchy's arrays for the life of the loaded network (acquired and
 * checked once, its edges laid out once as records the search reads in one cache line). Its
 * Python twin is sealane.routing.hierarchy.HierarchyPython; both must return the same costs (the
 * tests compare them). The hierarchy is undirected: up_ptr / up_head / up_weight list, per node,
 * its edges to more important nodes, up_middle the node a shortcut bypasses (-1 for a core
 * edge), up_children the two edges it stands for and up_mask its passage bits; an edge whose
 * mask meets `blocked` is skipped (only the masked hierarchy has masks, and there several edges
 * in different passages may join one pair, so each side remembers the edge that reached a node
 * and a shortcut unpacks by its children).
 *
 * climb: both searches settle nodes in order of distance, skip (stall) a node that one of its
 * more important neighbours reaches more cheaply, and stop when neither can improve the best
 * meeting. space: one search run until nothing is left to settle, its labels kept as bytes (an
 * end searched again and again); meet: two such spaces, the best node they share; climb_to: one
 * side's search against the other's space. The path is unpacked into core nodes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "_heap.h"
#include "_held.h"

/* The held arrays, in the constructor's order, with their item types. */
enum { UP_PTR, UP_HEAD, UP_WEIGHT, UP_MIDDLE, UP_CHILDREN, UP_MASK, UP_ARRAYS };
static const char UP_TYPES[UP_ARRAYS + 1] = "iidiiI";

/* An upward edge as the search reads it: head, passage bits and weight side by side. */
typedef struct {
    int32_t head;
    uint32_t mask;
    double weight;
} UpEdge;

/* One side's label of a node; valid only while `reached` (or `settled`) equals the call's
 * generation, so no call clears the arrays. What the search reads on every edge (16 bytes)
 * is kept apart from how the node was reached (its Link), read only for the path. */
typedef struct {
    double dist;
    uint32_t reached, settled;
} Label;

typedef struct {
    int32_t parent, via;
} Link;

typedef struct {
    PyObject_HEAD
    Py_buffer views[UP_ARRAYS];
    int held;  /* views acquired so far */
    int valid; /* every view held and checked: only then may a call read them */
    Py_ssize_t n, m;
    const int32_t *ptr;
    UpEdge *edges;
    Label *labels[2];
    Link *links[2];
    HeapItem *heaps[2];
    Py_ssize_t heap_cap;
    uint32_t generation;
} Hierarchy;

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


static int bad(const char *what)
{
    PyErr_Format(PyExc_ValueError, "Hierarchy: %s", what);
    return -1;
}

/* Sizes and indices agree, so no call reads outside the arrays. */
static int check(Hierarchy *self)
{
    Py_ssize_t n = held_items(&self->views[UP_PTR]) - 1, m = held_items(&self->views[UP_HEAD]);
    const int32_t *ptr = self->views[UP_PTR].buf, *head = self->views[UP_HEAD].buf;
    const int32_t *middle = self->views[UP_MIDDLE].buf, *children = self->views[UP_CHILDREN].buf;
    if (n < 1 || held_items(&self->views[UP_WEIGHT]) != m ||
        held_items(&self->views[UP_MIDDLE]) != m || held_items(&self->views[UP_MASK]) != m ||
        held_items(&self->views[UP_CHILDREN]) != 2 * m)
        return bad("arrays of different lengths");
    if (ptr[0] != 0 || ptr[n] != m) return bad("up_ptr does not span the edges");
    for (Py_ssize_t i = 0; i < n; i++)
        if (ptr[i] > ptr[i + 1]) return bad("up_ptr decreases");
    for (Py_ssize_t e = 0; e < m; e++) {
        if (head[e] < 0 || head[e] >= n || middle[e] < -1 || middle[e] >= n)
            return bad("a node outside the hierarchy");
        if (children[2 * e] < -1 || children[2 * e] >= m || children[2 * e + 1] < -1 ||
            children[2 * e + 1] >= m)
            return bad("a child outside the hierarchy");
    }
    self->n = n;
    self->m = m;
    return 0;
}

/* Heaps for `cap` pushes a side. */
static int grow_heaps(Hierarchy *self, Py_ssize_t cap)
{
    if (cap <= self->heap_cap) return 0;
    for (int side = 0; side < 2; side++) {
        HeapItem *grown = PyMem_Realloc(self->heaps[side], sizeof(HeapItem) * (size_t)cap);
        if (!grown) return -1;
        self->heaps[side] = grown;
    }
    self->heap_cap = cap;
    return 0;
}

static int Hierarchy_init(Hierarchy *self, PyObject *args, PyObject *kwargs)
{
    if (held_acquire(args, kwargs, "Hierarchy", UP_TYPES, self->views, &self->held)) return -1;
    if (check(self)) return -1;
    const int32_t *head = self->views[UP_HEAD].buf;
    const uint32_t *mask = self->views[UP_MASK].buf;
    const double *weight = self->views[UP_WEIGHT].buf;
    self->edges = PyMem_Malloc(sizeof(UpEdge) * (size_t)(self->m ? self->m : 1));
    for (int side = 0; side < 2; side++)
        self->labels[side] = PyMem_Calloc((size_t)self->n, sizeof(Label));
    for (int side = 0; side < 2; side++)
        self->links[side] = PyMem_Calloc((size_t)self->n, sizeof(Link)); /* in range even stale */
    if (!self->edges || !self->labels[0] || !self->labels[1] || !self->links[0] ||
        !self->links[1] || grow_heaps(self, self->m + 64)) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t e = 0; e < self->m; e++)
        self->edges[e] = (UpEdge){head[e], mask[e], weight[e]};
    self->ptr = self->views[UP_PTR].buf;
    self->valid = 1;
    return 0;
}

static void Hierarchy_dealloc(Hierarchy *self)
{
    for (int k = 0; k < self->held; k++) PyBuffer_Release(&self->views[k]);
    PyMem_Free(self->edges);
    for (int side = 0; side < 2; side++) {
        PyMem_Free(self->labels[side]);
        PyMem_Free(self->links[side]);
        PyMem_Free(self->heaps[side]);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The next generation of labels (all of them forgotten when the stamp wraps). */
static uint32_t next_generation(Hierarchy *self)
{
    if (++self->generation == 0) {
        for (int side = 0; side < 2; side++)
            for (Py_ssize_t i = 0; i < self->n; i++)
                self->labels[side][i].reached = self->labels[side][i].settled = 0;
        self->generation = 1;
    }
    return self->generation;
}

/* The climbs until neither can improve the best meeting: its cost and node (-1: none). A side
 * whose heap starts empty is a known space (its labels loaded, see `load`): the other side
 * climbs alone and meets its labels. With `best` infinite and one side only, the climb runs
 * until its heap is empty: the whole space upward of its ends. */
static int32_t meet_climbs(Hierarchy *self, uint32_t blocked, uint32_t gen, Py_ssize_t sizes[2],
                           double *best_cost)
{
    /* everything the loop touches in locals: stores through the heaps and labels cannot then
     * oblige the compiler to reload the Hierarchy's fields */
    const int32_t *const ptr = self->ptr;
    const UpEdge *const edges = self->edges;
    Label *const labels_of[2] = {self->labels[0], self->labels[1]};
    Link *const links_of[2] = {self->links[0], self->links[1]};
    HeapItem *const heaps[2] = {self->heaps[0], self->heaps[1]};
    Py_ssize_t size[2] = {sizes[0], sizes[1]};
    double best = *best_cost;
    int32_t meet = -1;
    for (;;) {
        double top0 = size[0] ? heaps[0][0].key : INFINITY;
        double top1 = size[1] ? heaps[1][0].key : INFINITY;
        int side = top0 <= top1 ? 0 : 1;
        if ((side ? top1 : top0) >= best || (!size[0] && !size[1])) break;
        HeapItem item = heap_pop(heaps[side], &size[side]);
        const int32_t x = item.node;
        const double key = item.key;
        Label *const labels = labels_of[side];
        Label *const at = &labels[x];
        if (at->settled == gen || key > at->dist) continue;
        at->settled = gen;
        const Label *across = &labels_of[1 - side][x];
        if (across->reached == gen && key + across->dist < best) {
            best = key + across->dist;
            meet = x;
        }
        const UpEdge *first = edges + ptr[x], *last = edges + ptr[x + 1];
        int stalled = 0;
        for (const UpEdge *e = first; e < last; e++) {
            if (e->mask & blocked) continue;
            const Label *up = &labels[e->head];
            if (up->reached == gen && up->dist + e->weight < key) {
                stalled = 1;
                break;
            }
        }
        if (stalled) continue;
        Link *const links = links_of[side];
        HeapItem *const heap = heaps[side];
        Py_ssize_t count = size[side];
        for (const UpEdge *e = first; e < last; e++) {
            if (e->mask & blocked) continue;
            const double candidate = key + e->weight;
            const int32_t y = e->head;
            Label *up = &labels[y];
            if (up->reached != gen || candidate < up->dist) {
                up->reached = gen;
                up->dist = candidate;
                links[y] = (Link){x, (int32_t)(e - edges)};
                heap_push(heap, &count, candidate, y);
            }
        }
        size[side] = count;
    }
    sizes[0] = size[0];
    sizes[1] = size[1];
    *best_cost = best;
    return meet;
}

/* The core nodes of the path through `meet`: the hierarchy nodes each side climbed, each step
 * opened into the core edges it stands for. */
static PyObject *unpacked(Hierarchy *self, int32_t meet)
{
    Path path = {NULL, 0, 0}, chain = {NULL, 0, 0}, stack = {NULL, 0, 0}, vias = {NULL, 0, 0};
    PyObject *nodes = NULL;
    const Link *up = self->links[0], *down = self->links[1];
    /* hierarchy nodes, each with the edge from the one before: the source side climbed back
     * from `meet` and reversed (the edge that reached a node leads to it), then the target side
     * (the edge that reached the previous node leads on to the next) */
    for (int32_t v = meet; v >= 0; v = up[v].parent) {
        if (chain.size > self->n) goto looped; /* parents that loop (a space of another call) */
        if (append(&chain, v) < 0 || append(&vias, up[v].via) < 0) goto nomem;
    }
    for (Py_ssize_t i = 0, j = chain.size - 1; i < j; i++, j--) {
        int32_t t = chain.nodes[i];
        chain.nodes[i] = chain.nodes[j];
        chain.nodes[j] = t;
        t = vias.nodes[i];
        vias.nodes[i] = vias.nodes[j];
        vias.nodes[j] = t;
    }
    for (int32_t v = meet; down[v].parent >= 0; v = down[v].parent) {
        if (chain.size > 2 * self->n) goto looped;
        if (append(&chain, down[v].parent) < 0 || append(&vias, down[v].via) < 0) goto nomem;
    }
    /* now vias[i] joins chain[i - 1] and chain[i] (vias[0] is the source side's -1) */
    if (append(&path, chain.nodes[0]) < 0) goto nomem;
    for (Py_ssize_t i = 0; i + 1 < chain.size; i++) {
        int status = unpack(self->views[UP_HEAD].buf, self->views[UP_MIDDLE].buf,
                            self->views[UP_CHILDREN].buf, self->m, chain.nodes[i],
                            chain.nodes[i + 1], vias.nodes[i + 1], &path, &stack, 4 * self->m + 4);
        if (status == -1) goto nomem;
        if (status == -2) goto looped;
    }
    nodes = PyBytes_FromStringAndSize((const char *)path.nodes,
                                      path.size * (Py_ssize_t)sizeof(int32_t));
    goto done;
looped:
    PyErr_SetString(PyExc_ValueError, "climb: a path step is not a hierarchy edge");
    goto done;
nomem:
    PyErr_NoMemory();
done:
    free(path.nodes);
    free(chain.nodes);
    free(stack.nodes);
    free(vias.nodes);
    return nodes;
}

/* One side's settled label as a space keeps it (see `space`). */
typedef struct {
    int32_t node, parent, via, unused;
    double dist;
} Settled;

static int ready(const Hierarchy *self)
{
    if (self->valid) return 1;
    PyErr_SetString(PyExc_RuntimeError, "Hierarchy: made without its arrays");
    return 0;
}

/* An end's nodes and costs (int32 and float64 buffers of one length, every node in range) into
 * `views[0..1]`; on failure none is held. */
static int ends_view(Hierarchy *self, PyObject *nodes, PyObject *costs, Py_buffer views[2],
                     const char *what)
{
    if (call_view(nodes, &views[0], 'i', what)) return -1;
    if (call_view(costs, &views[1], 'd', "costs")) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    Py_ssize_t count = views[0].len / 4;
    const int32_t *ends = views[0].buf;
    const char *error = views[1].len != count * 8 ? "climb: an end without its cost, or a cost too many" : NULL;
    for (Py_ssize_t i = 0; !error && i < count; i++)
        if (ends[i] < 0 || ends[i] >= self->n) error = "climb: end node out of range";
    if (!error) return 0;
    PyErr_SetString(PyExc_ValueError, error);
    PyBuffer_Release(&views[0]);
    PyBuffer_Release(&views[1]);
    return -1;
}

/* Start `side`'s climb from the ends in `views` (nodes, costs). */
static void seed(Hierarchy *self, int side, uint32_t gen, const Py_buffer views[2],
                 Py_ssize_t sizes[2])
{
    const int32_t *ends = views[0].buf;
    const double *costs = views[1].buf;
    for (Py_ssize_t i = 0, count = views[0].len / 4; i < count; i++) {
        Label *at = &self->labels[side][ends[i]];
        if (at->reached != gen || costs[i] < at->dist) {
            at->reached = gen;
            at->dist = costs[i];
            self->links[side][ends[i]] = (Link){-1, -1};
            heap_push(self->heaps[side], &sizes[side], at->dist, ends[i]);
        }
    }
}

/* A space's records (bytes of Settled, as `space` makes them), checked, as `side`'s labels. */
static int load(Hierarchy *self, int side, uint32_t gen, PyObject *space)
{
    if (!PyBytes_Check(space) || PyBytes_GET_SIZE(space) % (Py_ssize_t)sizeof(Settled)) {
        PyErr_SetString(PyExc_TypeError, "a space must be the bytes Hierarchy.space made");
        return -1;
    }
    const Settled *records = (const Settled *)PyBytes_AS_STRING(space);
    for (Py_ssize_t i = 0, count = PyBytes_GET_SIZE(space) / (Py_ssize_t)sizeof(Settled);
         i < count; i++) {
        const Settled *r = &records[i];
        if (r->node < 0 || r->node >= self->n || r->parent < -1 || r->parent >= self->n ||
            r->via < -1 || r->via >= self->m) {
            PyErr_SetString(PyExc_ValueError, "a space of another hierarchy");
            return -1;
        }
        self->labels[side][r->node] = (Label){r->dist, gen, gen};
        self->links[side][r->node] = (Link){r->parent, r->via};
    }
    return 0;
}

/* The result of a search that met at `meet` for `best` (None when it did not). */
static PyObject *met(Hierarchy *self, int32_t meet, double best)
{
    if (meet < 0) Py_RETURN_NONE;
    PyObject *nodes = unpacked(self, meet);
    return nodes ? Py_BuildValue("(dN)", best, nodes) : NULL;
}

static PyObject *Hierarchy_climb(Hierarchy *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ready(self)) return NULL;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "climb(blocked, sources, source_costs, targets, target_costs)");
        return NULL;
    }
    uint32_t blocked;
    Py_buffer from[2], to[2];
    if (mask_arg(args[0], &blocked) || ends_view(self, args[1], args[2], from, "sources"))
        return NULL;
    if (ends_view(self, args[3], args[4], to, "targets")) {
        PyBuffer_Release(&from[0]);
        PyBuffer_Release(&from[1]);
        return NULL;
    }
    PyObject *result = NULL;
    if (grow_heaps(self, self->m + from[0].len / 4 + to[0].len / 4 + 1)) {
        PyErr_NoMemory();
    } else {
        const uint32_t gen = next_generation(self);
        Py_ssize_t sizes[2] = {0, 0};
        seed(self, 0, gen, from, sizes);
        seed(self, 1, gen, to, sizes);
        double best = INFINITY;
        int32_t meet = meet_climbs(self, blocked, gen, sizes, &best);
        result = met(self, meet, best);
    }
    for (int k = 0; k < 2; k++) {
        PyBuffer_Release(&from[k]);
        PyBuffer_Release(&to[k]);
    }
    return result;
}

static PyObject *Hierarchy_space(Hierarchy *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ready(self)) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "space(blocked, ends, costs)");
        return NULL;
    }
    uint32_t blocked;
    Py_buffer from[2];
    if (mask_arg(args[0], &blocked) || ends_view(self, args[1], args[2], from, "ends"))
        return NULL;
    PyObject *result = NULL;
    if (grow_heaps(self, self->m + from[0].len / 4 + 1)) {
        PyErr_NoMemory();
        goto done;
    }
    const uint32_t gen = next_generation(self);
    Py_ssize_t sizes[2] = {0, 0};
    seed(self, 0, gen, from, sizes);
    double best = INFINITY;
    meet_climbs(self, blocked, gen, sizes, &best);
    Py_ssize_t count = 0;
    const Label *labels = self->labels[0];
    const Link *links = self->links[0];
    for (Py_ssize_t v = 0; v < self->n; v++) count += labels[v].settled == gen;
    result = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(Settled));
    if (!result) goto done;
    Settled *out = (Settled *)PyBytes_AS_STRING(result);
    for (Py_ssize_t v = 0; v < self->n; v++)
        if (labels[v].settled == gen)
            *out++ = (Settled){(int32_t)v, links[v].parent, links[v].via, 0, labels[v].dist};
done:
    PyBuffer_Release(&from[0]);
    PyBuffer_Release(&from[1]);
    return result;
}

static PyObject *Hierarchy_meet(Hierarchy *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ready(self)) return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "meet(origin_space, destination_space)");
        return NULL;
    }
    const uint32_t gen = next_generation(self);
    if (load(self, 0, gen, args[0]) || load(self, 1, gen, args[1])) return NULL;
    const Settled *records = (const Settled *)PyBytes_AS_STRING(args[1]);
    const Label *up = self->labels[0];
    double best = INFINITY;
    int32_t meet = -1;
    for (Py_ssize_t i = 0, count = PyBytes_GET_SIZE(args[1]) / (Py_ssize_t)sizeof(Settled);
         i < count; i++) {
        const Label *across = &up[records[i].node];
        if (across->settled == gen && across->dist + records[i].dist < best) {
            best = across->dist + records[i].dist;
            meet = records[i].node;
        }
    }
    return met(self, meet, best);
}

static PyObject *Hierarchy_climb_to(Hierarchy *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ready(self)) return NULL;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "climb_to(blocked, space, known_side, ends, costs)");
        return NULL;
    }
    uint32_t blocked;
    int known = PyObject_IsTrue(args[2]);
    Py_buffer from[2];
    if (known < 0 || mask_arg(args[0], &blocked) || ends_view(self, args[3], args[4], from, "ends"))
        return NULL;
    PyObject *result = NULL;
    if (grow_heaps(self, self->m + from[0].len / 4 + 1)) {
        PyErr_NoMemory();
    } else {
        const uint32_t gen = next_generation(self);
        if (!load(self, known, gen, args[1])) {
            Py_ssize_t sizes[2] = {0, 0};
            seed(self, 1 - known, gen, from, sizes);
            double best = INFINITY;
            int32_t meet = meet_climbs(self, blocked, gen, sizes, &best);
            result = met(self, meet, best);
        }
    }
    PyBuffer_Release(&from[0]);
    PyBuffer_Release(&from[1]);
    return result;
}

static PyMethodDef Hierarchy_methods[] = {
    {"climb", (PyCFunction)(void (*)(void))Hierarchy_climb, METH_FASTCALL,
     "climb(blocked, sources, source_costs, targets, target_costs) "
     "-> (cost, core path int32 bytes) | None"},
    {"space", (PyCFunction)(void (*)(void))Hierarchy_space, METH_FASTCALL,
     "space(blocked, ends, costs) -> bytes: every node the climb from the ends settles, with "
     "its label (an end searched again and again is climbed once)"},
    {"meet", (PyCFunction)(void (*)(void))Hierarchy_meet, METH_FASTCALL,
     "meet(origin_space, destination_space) -> (cost, core path int32 bytes) | None"},
    {"climb_to", (PyCFunction)(void (*)(void))Hierarchy_climb_to, METH_FASTCALL,
     "climb_to(blocked, space, known_side, ends, costs) -> (cost, core path) | None: the "
     "other side's climb from its ends against a known space (known_side 0: the origin's)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject HierarchyType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sealane.routing._hierarchy.Hierarchy",
    .tp_basicsize = sizeof(Hierarchy),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Hierarchy(up_ptr, up_head, up_weight, up_middle, up_children, up_mask): "
              "one contraction hierarchy's arrays, held and checked once",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Hierarchy_init,
    .tp_dealloc = (destructor)Hierarchy_dealloc,
    .tp_methods = Hierarchy_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_hierarchy", NULL, -1, NULL};

PyMODINIT_FUNC PyInit__hierarchy(void)
{
    if (PyType_Ready(&HierarchyType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&HierarchyType);
    if (PyModule_AddObject(m, "Hierarchy", (PyObject *)&HierarchyType) < 0) {
        Py_DECREF(&HierarchyType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
