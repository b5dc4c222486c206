/*
 * Snapping in C: the nearest point of the nearest of a set of great-circle arcs to a point, on
 * the unit sphere, over the edge arcs held once.
 *
 * A route from a coordinate the engine has not seen snaps it onto the lanes (the candidates of
 * its cell of the graph's index) and, off the lanes, onto the nearest shortcut; with numpy each
 * of those is a dozen small array calls, which cost more than the route's search. Arcs holds
 * the edges' end unit vectors, their great circles' normals and their passage masks; each call
 * passes the point and which edges to look at. The Python twin is
 * sealane.routing.snapping.ArcsPython; the tests compare the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { EDGE_A, EDGE_B, EDGE_NORMAL, EDGE_PASSAGES, CELL_PTR, CELL_EDGES, ARRAYS };

typedef struct {
    PyObject_HEAD
    Py_buffer views[ARRAYS];
    int held;
    int valid;
    Py_ssize_t edges, cells;
    int32_t *seen; /* per edge, the call of near() that last measured it */
    int32_t call;
} Arcs;

#define F64(self, k) ((const double *)(self)->views[k].buf)

/* The best arc so far: its index, the angle to it (radians) and the nearest point on it. */
typedef struct {
    Py_ssize_t edge;
    double angle, p[3];
} Best;

static double dot(const double *u, const double *v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

/* (x cross y) . n */
static double triple(const double *x, const double *y, const double *n)
{
    return (x[1] * y[2] - x[2] * y[1]) * n[0] + (x[2] * y[0] - x[0] * y[2]) * n[1] +
           (x[0] * y[1] - x[1] * y[0]) * n[2];
}

static double chord(const double *u, const double *v)
{
    double d0 = u[0] - v[0], d1 = u[1] - v[1], d2 = u[2] - v[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

/* Arc e against the point, as geodesy.nearest_on_arcs measures it: the projection onto its
 * great circle when that falls between its ends, else the nearer end. Kept when nearer than
 * the best so far (the first of equals wins, like numpy's argmin over the candidates' order). */
static void consider(const Arcs *self, Py_ssize_t e, const double *point, Best *best)
{
    const double *a = F64(self, EDGE_A) + 3 * e, *b = F64(self, EDGE_B) + 3 * e;
    const double *n = F64(self, EDGE_NORMAL) + 3 * e;
    double sin_cross = dot(n, point), q[3];
    for (int i = 0; i < 3; i++) q[i] = point[i] - sin_cross * n[i];
    double norm = sqrt(dot(q, q));
    if (norm > 0)
        for (int i = 0; i < 3; i++) q[i] /= norm;
    int inside = triple(a, q, n) >= 0 && triple(q, b, n) >= 0 && norm > 1e-12;
    double ca = chord(a, point), cb = chord(b, point), angle;
    if (inside) {
        double s = fabs(sin_cross);
        angle = asin(s < 1.0 ? s : 1.0);
    } else {
        double c = (ca < cb ? ca : cb) / 2.0;
        angle = 2.0 * asin(c < 1.0 ? c : 1.0);
    }
    if (!(angle < best->angle)) return; /* starts at a bound, or at infinity */
    const double *at = inside ? q : (ca <= cb ? a : b);
    best->edge = e, best->angle = angle;
    for (int i = 0; i < 3; i++) best->p[i] = at[i];
}

/* (edge, angle, lon, lat, fraction along the edge from its u end) of the best arc. */
static PyObject *answer(const Arcs *self, const Best *best)
{
    if (best->edge < 0) Py_RETURN_NONE;
    const double *a = F64(self, EDGE_A) + 3 * best->edge, *b = F64(self, EDGE_B) + 3 * best->edge;
    const double *p = best->p;
    double c = chord(p, a) / 2.0, along = 2.0 * asin(c < 1.0 ? c : 1.0);
    double cos_span = dot(a, b);
    double span = acos(cos_span > 1.0 ? 1.0 : cos_span < -1.0 ? -1.0 : cos_span);
    double fraction = span > 0 ? along / span : 0.0;
    fraction = fraction < 0.0 ? 0.0 : fraction > 1.0 ? 1.0 : fraction;
    double lon = atan2(p[1], p[0]) * (180.0 / M_PI);
    double z = p[2] > 1.0 ? 1.0 : p[2] < -1.0 ? -1.0 : p[2];
    double lat = asin(z) * (180.0 / M_PI);
    if (lon >= 180.0) lon = -180.0;
    return Py_BuildValue("(ndddd)", best->edge, best->angle, lon, lat, fraction);
}

static int ready(const Arcs *self)
{
    if (self->valid) return 1;
    PyErr_SetString(PyExc_RuntimeError, "Arcs: made without its arrays");
    return 0;
}

static void unit(double lon_deg, double lat_deg, double *out)
{
    double lon = lon_deg * (M_PI / 180.0), lat = lat_deg * (M_PI / 180.0);
    out[0] = cos(lat) * cos(lon), out[1] = cos(lat) * sin(lon), out[2] = sin(lat);
}

/* in_cell(lon, lat, cell): the nearest of the cell's listed edges, whatever their passages. */
static PyObject *Arcs_in_cell(Arcs *self, PyObject *args)
{
    double lon, lat, point[3];
    Py_ssize_t cell;
    if (!ready(self) || !PyArg_ParseTuple(args, "ddn", &lon, &lat, &cell)) return NULL;
    if (cell < 0 || cell >= self->cells) {
        PyErr_SetString(PyExc_ValueError, "in_cell: a cell outside the index");
        return NULL;
    }
    unit(lon, lat, point);
    const int64_t *ptr = (const int64_t *)self->views[CELL_PTR].buf;
    const int32_t *ids = (const int32_t *)self->views[CELL_EDGES].buf;
    Best best = {-1, INFINITY, {0, 0, 0}};
    for (int64_t k = ptr[cell]; k < ptr[cell + 1]; k++) consider(self, ids[k], point, &best);
    return answer(self, &best);
}

static int typed(const Py_buffer *view, char code, Py_ssize_t size);

/* among(lon, lat, ids, blocked, reach): the nearest of `ids` (int32) outside the `blocked`
 * passages whose great circle passes within the angle whose sine is `reach`; None if none. */
static PyObject *Arcs_among(Arcs *self, PyObject *args)
{
    double lon, lat, reach, point[3];
    unsigned long blocked;
    Py_buffer view;
    PyObject *given;
    if (!ready(self) || !PyArg_ParseTuple(args, "ddOkd", &lon, &lat, &given, &blocked, &reach))
        return NULL;
    if (PyObject_GetBuffer(given, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (!typed(&view, 'i', (Py_ssize_t)sizeof(int32_t))) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "among: ids must be a contiguous int32 array");
        return NULL;
    }
    unit(lon, lat, point);
    const int32_t *ids = (const int32_t *)view.buf;
    const uint32_t *masks = (const uint32_t *)self->views[EDGE_PASSAGES].buf;
    const double *normals = F64(self, EDGE_NORMAL);
    Best best = {-1, INFINITY, {0, 0, 0}};
    Py_ssize_t count = view.len / (Py_ssize_t)sizeof(int32_t);
    for (Py_ssize_t k = 0; k < count; k++) {
        int32_t e = ids[k];
        if (e < 0 || e >= self->edges) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "among: an edge outside the graph");
            return NULL;
        }
        if (masks[e] & blocked) continue;
        if (fabs(dot(normals + 3 * (Py_ssize_t)e, point)) > reach) continue;
        consider(self, e, point, &best);
    }
    PyBuffer_Release(&view);
    return answer(self, &best);
}

/* The edges listed in the cells that a cap of `radius` (radians) around the point touches, each
 * measured once per call (`seen`), skipping those in `blocked` passages and those whose great
 * circle passes no nearer than the best so far. The cells are `cell_deg` degrees, rows from
 * 90 S and columns from 180 W, like the graph's index. */
static void scan_cap(Arcs *self, const double *point, double lon, double lat, double radius,
                     double cell_deg, unsigned long blocked, Best *best)
{
    Py_ssize_t rows = (Py_ssize_t)lround(180.0 / cell_deg), cols = (Py_ssize_t)lround(360.0 / cell_deg);
    double r_deg = radius * (180.0 / M_PI), lat0 = lat - r_deg, lat1 = lat + r_deg;
    Py_ssize_t row0 = (Py_ssize_t)floor((lat0 + 90.0) / cell_deg);
    Py_ssize_t row1 = (Py_ssize_t)floor((lat1 + 90.0) / cell_deg);
    row0 = row0 < 0 ? 0 : row0, row1 = row1 > rows - 1 ? rows - 1 : row1;
    Py_ssize_t col0 = 0, span = cols;
    double s = sin(radius < M_PI / 2 ? radius : M_PI / 2), c = cos(lat * (M_PI / 180.0));
    if (lat0 > -90.0 && lat1 < 90.0 && s < c) {
        double d_lon = asin(s / c) * (180.0 / M_PI);
        col0 = (Py_ssize_t)floor((lon - d_lon + 180.0) / cell_deg);
        span = (Py_ssize_t)floor((lon + d_lon + 180.0) / cell_deg) - col0 + 1;
        if (span > cols) span = cols;
    }
    const int64_t *ptr = (const int64_t *)self->views[CELL_PTR].buf;
    const int32_t *ids = (const int32_t *)self->views[CELL_EDGES].buf;
    const uint32_t *masks = (const uint32_t *)self->views[EDGE_PASSAGES].buf;
    const double *normals = F64(self, EDGE_NORMAL);
    for (Py_ssize_t row = row0; row <= row1; row++) {
        for (Py_ssize_t j = 0; j < span; j++) {
            Py_ssize_t col = ((col0 + j) % cols + cols) % cols, cell = row * cols + col;
            for (int64_t k = ptr[cell]; k < ptr[cell + 1]; k++) {
                int32_t e = ids[k];
                if (self->seen[e] == self->call) continue;
                self->seen[e] = self->call;
                if (masks[e] & blocked) continue;
                double across = fabs(dot(normals + 3 * (Py_ssize_t)e, point));
                if (best->angle < M_PI / 2 && across >= sin(best->angle)) continue;
                consider(self, e, point, best);
            }
        }
    }
}

/* ahead(lon, lat, cell, goal_lon, goal_lat, reach, count): the ends of the cell's listed edges
 * within the angle `reach` (radians) of the point, the `count` of them with the least angle
 * from the point plus angle on to the goal, best first, each end once: a list of (edge, end,
 * angle), end 0 for the edge's u node and 1 for its v node. */
static PyObject *Arcs_ahead(Arcs *self, PyObject *args)
{
    double lon, lat, goal_lon, goal_lat, reach, point[3], goal[3];
    Py_ssize_t cell, count;
    if (!ready(self) || !PyArg_ParseTuple(args, "ddnddnd", &lon, &lat, &cell, &goal_lon,
                                          &goal_lat, &count, &reach))
        return NULL;
    if (cell < 0 || cell >= self->cells || count < 0 || count > 64) {
        PyErr_SetString(PyExc_ValueError, "ahead: a cell outside the index or a count over 64");
        return NULL;
    }
    if (count == 0) return PyList_New(0); /* nothing kept: no slot to compare or fill */
    unit(lon, lat, point);
    unit(goal_lon, goal_lat, goal);
    Py_ssize_t kept = 0, edge[64];
    int end[64];
    double score[64], angle[64];
    const int64_t *ptr = (const int64_t *)self->views[CELL_PTR].buf;
    const int32_t *ids = (const int32_t *)self->views[CELL_EDGES].buf;
    for (int64_t k = ptr[cell]; k < ptr[cell + 1]; k++) {
        for (int which = 0; which < 2; which++) {
            const double *x = F64(self, which ? EDGE_B : EDGE_A) + 3 * (Py_ssize_t)ids[k];
            double c = dot(point, x), to = acos(c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c);
            if (to > reach) continue;
            double g = dot(goal, x), on = to + acos(g > 1.0 ? 1.0 : g < -1.0 ? -1.0 : g);
            int repeated = 0;
            for (Py_ssize_t i = 0; i < kept && !repeated; i++) {
                const double *y = F64(self, end[i] ? EDGE_B : EDGE_A) + 3 * edge[i];
                repeated = x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
            }
            if (repeated || (kept == count && !(on < score[kept - 1]))) continue;
            Py_ssize_t i = kept < count ? kept++ : count - 1;
            for (; i > 0 && score[i - 1] > on; i--) {
                score[i] = score[i - 1], angle[i] = angle[i - 1];
                edge[i] = edge[i - 1], end[i] = end[i - 1];
            }
            score[i] = on, angle[i] = to, edge[i] = ids[k], end[i] = which;
        }
    }
    PyObject *out = PyList_New(kept);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < kept; i++) {
        PyObject *item = Py_BuildValue("(nid)", edge[i], end[i], angle[i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* `within` widened by a relative 1e-12: an arc exactly that far (a shortcut ending on the lane
 * node a point snaps to) is found whatever the rounding of its angle. */
static double within_bound(double within) { return within * (1.0 + 1e-12) + 1e-15; }

/* near(lon, lat, blocked, within, slack, cell_deg): the nearest edge listed in the cell index
 * within the angle `within` (radians), or None. The index lists an edge in every cell holding
 * one of its points sampled at most 2 * slack apart, so an edge within r of the point has a
 * sample within r + slack: caps of growing radius are scanned until the best found lies
 * inside the last one. */
static PyObject *Arcs_near(Arcs *self, PyObject *args)
{
    double lon, lat, within, slack, cell_deg, point[3];
    unsigned long blocked;
    if (!ready(self) || !PyArg_ParseTuple(args, "ddkddd", &lon, &lat, &blocked, &within, &slack,
                                          &cell_deg))
        return NULL;
    /* The cell size is checked before it divides: at least a hundredth of a degree, so the
     * grid's row and column counts stay small and their product cannot overflow. */
    if (!(cell_deg >= 0.01 && cell_deg <= 180.0)) {
        PyErr_SetString(PyExc_ValueError, "near: cell_deg does not match the index");
        return NULL;
    }
    Py_ssize_t rows = (Py_ssize_t)lround(180.0 / cell_deg), cols = (Py_ssize_t)lround(360.0 / cell_deg);
    if (rows * cols != self->cells || !(within >= 0) || !(slack >= 0)) {
        PyErr_SetString(PyExc_ValueError, "near: cell_deg does not match the index, or a "
                                          "negative distance");
        return NULL;
    }
    if (!self->seen) {
        self->seen = calloc((size_t)self->edges, sizeof(int32_t));
        if (!self->seen) return PyErr_NoMemory();
    }
    if (++self->call == INT32_MAX) {
        memset(self->seen, 0, sizeof(int32_t) * (size_t)self->edges);
        self->call = 1;
    }
    unit(lon, lat, point);
    Best best = {-1, within_bound(within), {0, 0, 0}};
    double radius = cell_deg * (M_PI / 180.0);
    for (;;) {
        if (radius > within) radius = within;
        scan_cap(self, point, lon, lat, radius + slack, cell_deg, blocked, &best);
        if (best.angle <= radius || radius >= within) break;
        radius *= 2.0;
    }
    return answer(self, &best);
}

static int typed(const Py_buffer *view, char code, Py_ssize_t size)
{
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@') format++;
    char found = format[0] == 'l' && size == 8 ? 'q' : format[0] == 'l' ? 'i'
               : format[0] == 'L' ? 'I' : format[0];
    return found == code && format[1] == '\0' && view->itemsize == size;
}

static int Arcs_init(Arcs *self, PyObject *args, PyObject *kwargs)
{
    static const char codes[ARRAYS] = {'d', 'd', 'd', 'I', 'q', 'i'};
    static const Py_ssize_t sizes[ARRAYS] = {8, 8, 8, 4, 8, 4};
    if (self->held || (kwargs && PyDict_GET_SIZE(kwargs)) || PyTuple_GET_SIZE(args) != ARRAYS) {
        PyErr_SetString(PyExc_TypeError, "Arcs(edge_a, edge_b, edge_normal, edge_passages, "
                                         "cell_ptr, cell_edges) is made once");
        return -1;
    }
    for (int k = 0; k < ARRAYS; k++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, k), &self->views[k],
                               PyBUF_FORMAT | PyBUF_C_CONTIGUOUS))
            return -1;
        self->held++;
        if (!typed(&self->views[k], codes[k], sizes[k])) {
            PyErr_SetString(PyExc_ValueError, "Arcs: an array of the wrong type");
            return -1;
        }
    }
    Py_ssize_t n = self->views[EDGE_PASSAGES].len / 4;
    self->edges = n;
    self->cells = self->views[CELL_PTR].len / 8 - 1;
    if (self->views[EDGE_A].len != 24 * n || self->views[EDGE_B].len != 24 * n ||
        self->views[EDGE_NORMAL].len != 24 * n || self->cells < 1) {
        PyErr_SetString(PyExc_ValueError, "Arcs: arrays of different lengths");
        return -1;
    }
    const int64_t *ptr = (const int64_t *)self->views[CELL_PTR].buf;
    const int32_t *ids = (const int32_t *)self->views[CELL_EDGES].buf;
    Py_ssize_t listed = self->views[CELL_EDGES].len / 4;
    if (ptr[0] != 0 || ptr[self->cells] != listed) {
        PyErr_SetString(PyExc_ValueError, "Arcs: cell_ptr does not span cell_edges");
        return -1;
    }
    for (Py_ssize_t c = 0; c < self->cells; c++)
        if (ptr[c] > ptr[c + 1]) {
            PyErr_SetString(PyExc_ValueError, "Arcs: cell_ptr decreases");
            return -1;
        }
    for (Py_ssize_t k = 0; k < listed; k++)
        if (ids[k] < 0 || ids[k] >= n) {
            PyErr_SetString(PyExc_ValueError, "Arcs: a cell lists an edge outside the graph");
            return -1;
        }
    self->valid = 1;
    return 0;
}

static void Arcs_dealloc(Arcs *self)
{
    for (int k = 0; k < self->held; k++) PyBuffer_Release(&self->views[k]);
    free(self->seen);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Arcs_methods[] = {
    {"in_cell", (PyCFunction)Arcs_in_cell, METH_VARARGS,
     "in_cell(lon, lat, cell) -> (edge, angle, lon, lat, fraction) | None"},
    {"among", (PyCFunction)Arcs_among, METH_VARARGS,
     "among(lon, lat, ids, blocked, reach) -> (edge, angle, lon, lat, fraction) | None"},
    {"ahead", (PyCFunction)Arcs_ahead, METH_VARARGS,
     "ahead(lon, lat, cell, goal_lon, goal_lat, count, reach) -> [(edge, end, angle), ...]"},
    {"near", (PyCFunction)Arcs_near, METH_VARARGS,
     "near(lon, lat, blocked, within, slack, cell_deg) -> (edge, angle, lon, lat, fraction) | None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ArcsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sealane.routing._snapping.Arcs",
    .tp_doc = "Arcs(edge_a, edge_b, edge_normal, edge_passages, cell_ptr, cell_edges): the edges "
              "as arcs on the unit sphere, held for snapping.",
    .tp_basicsize = sizeof(Arcs),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Arcs_init,
    .tp_dealloc = (destructor)Arcs_dealloc,
    .tp_methods = Arcs_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_snapping", NULL, -1, NULL};

PyMODINIT_FUNC PyInit__snapping(void)
{
    if (PyType_Ready(&ArcsType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Arcs", (PyObject *)&ArcsType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
