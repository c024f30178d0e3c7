/* The cache-hit path of a jitted call, in C (optional accelerator).
 *
 * ``sciax.jit(f)(*arrays)`` with a signature seen before does little work:
 * form the cache key from the arguments' abstract values, look it up, hand
 * the device buffers to the compiled executable and wrap the results as
 * sciax Arrays.  In Python those steps cost about 1.9 us per call on top of
 * the executable's own ~3 us, against ~0.8 us for JAX's C++ fast path.  This
 * module does the same steps in C for the commonest calls -- positional
 * arguments that are Arrays, Python scalars, NumPy arrays (each transferred by
 * the Python function it is given), or tuples and lists of them, no
 * keyword arguments,
 * outside any transformation -- and hands
 * every other call (and every miss) to the Python method it is given, which
 * stays the definition of jit's semantics (sciax/_src/jit.py).  Nothing here
 * knows jaxlib: the executable's ``run`` and the result handlers are plain
 * Python callables.  Built when a C compiler is present; sciax runs the same
 * without it (SCIAX_NO_FASTJIT=1 turns it off).
 *
 * The hot path, step for step as JitWrapped._call:
 *   key   = (FLAT, a0.aval.key, a1.aval.key, ...)  (each argument an Array), or
 *           (tree, POSITIONAL, leaf keys...)      (leaves, tree = flatten(args))
 *   entry = self._cache[key]            (a miss -> the Python path)
 *   self._cache.move_to_end(key)        (only when it holds > 1 entries)
 *   run, handlers, single, out_tree, out_avals, const_bufs, flat_out = entry.fast
 *   outs  = run([*const_bufs, a0._buf, ...]).consume_with_handlers(handlers)
 *   return Array(outs[0], single) or out_tree.unflatten([Array(b, a) ...])
 *          (a tuple of the Arrays, built here, when flat_out: out_tree is one)
 *
 * A repeated signature skips the key's hash, the lookup and the move: each
 * jitted function remembers its last hit (the key, its entry, and the cache's
 * length and ``removals`` then).  When the new call's key would hold the very
 * same objects (the tree, and each leaf's ``aval.key``, compared by identity),
 * no entry has left the cache since (``removals``) and none was added (its
 * length), the entry is the same and already the most recently used: every
 * change of the cache's order other than by this path's own hits goes through
 * the Python call (a miss, any other call), which forgets the memo.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* Set once by configure(). */
static PyTypeObject *g_array_type = NULL; /* sciax.Array (exact type only) */
static PyObject *g_state = NULL;          /* the thread-local trace state */
static PyObject *g_eval_trace = NULL;     /* the eager trace */
static PyObject *g_flat = NULL;           /* the key's tag: one Array per argument */
static PyObject *g_positional = NULL;     /* the key's tag: positional pytrees */
static PyObject *g_flatten = NULL;        /* the pytree registry's flatten */
static PyObject *g_scalar = NULL;         /* Python scalar -> its cached 0-d Array */
static PyTypeObject *g_aval_type = NULL;  /* ShapedArray (exact type only) */
static PyTypeObject *g_ndarray_type = NULL; /* numpy.ndarray (exact type only) */
static PyObject *g_ndarray = NULL;        /* NumPy array -> its Array (a transfer) */
static Py_ssize_t g_off_buf = -1, g_off_aval = -1, g_off_npy = -1, g_off_key = -1;
/* Tree structures of tuples and lists of Arrays, as a signature of small
   ints -> the registry's treedef: flattening those in C costs far less than
   a call of the registry (0.1 against 0.6 us for a tuple of three). */
static PyObject *g_trees = NULL;
#define MAX_TREES 1024
#define MAX_LEAVES 256

static PyObject *s_trace, *s_key, *s_fast, *s_move_to_end, *s_consume, *s_unflatten,
    *s_removals;

typedef struct {
    PyObject_HEAD
    PyObject *cache; /* the signature cache (an OrderedDict) */
    PyObject *slow;  /* the Python call: slow(*args, **kwargs) */
    /* the last hit: its key and entry, and the cache's removals and length
       then (see the header); NULL when forgotten */
    PyObject *m_key, *m_entry, *m_removals;
    Py_ssize_t m_len;
} FastJit;

static void
forget(FastJit *self)
{
    Py_CLEAR(self->m_key);
    Py_CLEAR(self->m_entry);
    Py_CLEAR(self->m_removals);
}

static int
slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *off)
{
    PyObject *d = PyObject_GetAttrString((PyObject *)type, name);
    if (d == NULL)
        return -1;
    if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        Py_DECREF(d);
        PyErr_Format(PyExc_TypeError, "%s.%s is not a __slots__ member", type->tp_name,
                     name);
        return -1;
    }
    *off = ((PyMemberDescrObject *)d)->d_member->offset;
    Py_DECREF(d);
    return 0;
}

static PyObject *
configure(PyObject *mod, PyObject *args)
{
    PyObject *array_type, *state, *eval_trace, *flat, *positional, *flatten, *scalar,
        *aval_type, *ndarray_type, *ndarray;
    if (!PyArg_ParseTuple(args, "O!OOOOOOO!O!O", &PyType_Type, &array_type, &state,
                          &eval_trace, &flat, &positional, &flatten, &scalar,
                          &PyType_Type, &aval_type, &PyType_Type, &ndarray_type,
                          &ndarray))
        return NULL;
    Py_ssize_t ob, oa, on, ok;
    if (slot_offset((PyTypeObject *)array_type, "_buf", &ob) < 0
        || slot_offset((PyTypeObject *)array_type, "aval", &oa) < 0
        || slot_offset((PyTypeObject *)array_type, "_npy", &on) < 0
        || slot_offset((PyTypeObject *)aval_type, "key", &ok) < 0)
        return NULL;
    Py_INCREF(aval_type);
    Py_XSETREF(g_aval_type, (PyTypeObject *)aval_type);
    Py_INCREF(ndarray_type);
    Py_XSETREF(g_ndarray_type, (PyTypeObject *)ndarray_type);
    Py_INCREF(ndarray);
    Py_XSETREF(g_ndarray, ndarray);
    g_off_key = ok;
    Py_INCREF(array_type);
    Py_INCREF(state);
    Py_INCREF(eval_trace);
    Py_INCREF(flat);
    Py_INCREF(positional);
    Py_INCREF(flatten);
    Py_XSETREF(g_positional, positional);
    Py_XSETREF(g_flatten, flatten);
    Py_INCREF(scalar);
    Py_XSETREF(g_scalar, scalar);
    Py_XSETREF(g_array_type, (PyTypeObject *)array_type);
    Py_XSETREF(g_state, state);
    Py_XSETREF(g_eval_trace, eval_trace);
    Py_XSETREF(g_flat, flat);
    g_off_buf = ob;
    g_off_aval = oa;
    g_off_npy = on;
    Py_RETURN_NONE;
}

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* A new sciax Array holding ``buf`` with abstract value ``aval``. */
static PyObject *
new_array(PyObject *buf, PyObject *aval)
{
    PyObject *a = g_array_type->tp_alloc(g_array_type, 0);
    if (a == NULL)
        return NULL;
    Py_INCREF(buf);
    SLOT(a, g_off_buf) = buf;
    Py_INCREF(aval);
    SLOT(a, g_off_aval) = aval;
    Py_INCREF(Py_None);
    SLOT(a, g_off_npy) = Py_None;
    return a;
}

static int
is_scalar(PyObject *x)
{
    return PyFloat_CheckExact(x) || PyLong_CheckExact(x) || PyBool_Check(x)
           || PyComplex_CheckExact(x);
}

/* A leaf the hit path takes: an exact Array, Python scalar or NumPy array. */
static int
is_leaf(PyObject *x)
{
    return Py_TYPE(x) == g_array_type || is_scalar(x) || Py_TYPE(x) == g_ndarray_type;
}

/* Walk exact tuples and lists down to exact Arrays (or Python scalars, NumPy arrays), appending the leaves to
   ``leaves`` and the structure to ``sig`` (-1 an Array, 2L a tuple of L
   items, 2L + 1 a list); 0 on success, 1 for anything else (take the
   registry), -1 on error. */
static int
walk(PyObject *x, PyObject **leaves, Py_ssize_t *nl, long *sig, Py_ssize_t *ns)
{
    if (*ns >= 2 * MAX_LEAVES)
        return 1;
    if (is_leaf(x)) {
        if (*nl >= MAX_LEAVES)
            return 1;
        leaves[(*nl)++] = x;
        sig[(*ns)++] = -1;
        return 0;
    }
    int is_tuple = PyTuple_CheckExact(x);
    if (!is_tuple && !PyList_CheckExact(x))
        return 1;
    Py_ssize_t len = Py_SIZE(x);
    sig[(*ns)++] = 2 * (long)len + (is_tuple ? 0 : 1);
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = is_tuple ? PyTuple_GET_ITEM(x, i) : PyList_GET_ITEM(x, i);
        int r = walk(item, leaves, nl, sig, ns);
        if (r)
            return r;
    }
    return 0;
}

/* The treedef of ``args`` (borrowed from g_trees) with its Array leaves in
   ``leaves``, or NULL (no error set) when ``args`` is not a tree of tuples,
   lists and Arrays. */
static PyObject *
tree_of(PyObject *args, PyObject **leaves, Py_ssize_t *nl)
{
    long sig[2 * MAX_LEAVES];
    Py_ssize_t ns = 0;
    *nl = 0;
    if (walk(args, leaves, nl, sig, &ns) != 0)
        return NULL;
    PyObject *key = PyTuple_New(ns);
    if (key == NULL) {
        PyErr_Clear();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < ns; i++) {
        PyObject *v = PyLong_FromLong(sig[i]);
        if (v == NULL) {
            PyErr_Clear();
            Py_DECREF(key);
            return NULL;
        }
        PyTuple_SET_ITEM(key, i, v);
    }
    PyObject *tree = PyDict_GetItemWithError(g_trees, key);
    if (tree == NULL) {
        PyObject *flat;
        if (PyErr_Occurred() || (flat = PyObject_CallOneArg(g_flatten, args)) == NULL) {
            PyErr_Clear();
            Py_DECREF(key);
            return NULL;
        }
        if (PyTuple_Check(flat) && PyTuple_GET_SIZE(flat) == 2) {
            if (PyDict_GET_SIZE(g_trees) >= MAX_TREES)
                PyDict_Clear(g_trees);
            if (PyDict_SetItem(g_trees, key, PyTuple_GET_ITEM(flat, 1)) < 0)
                PyErr_Clear();
            tree = PyDict_GetItemWithError(g_trees, key);
        }
        Py_DECREF(flat);
        if (tree == NULL)
            PyErr_Clear();
    }
    Py_DECREF(key);
    return tree;
}

/* The fast path; NULL with no error set means "take the Python path". */
/* The list of Arrays of the buffers ``outs`` with the avals ``out_avals``;
   NULL with the error set when one fails. */
static PyObject *
arrays_of(PyObject *outs, PyObject *out_avals)
{
    Py_ssize_t m = PyList_GET_SIZE(outs);
    PyObject *arrays = PyList_New(m);
    if (arrays == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *a = new_array(PyList_GET_ITEM(outs, i), PyTuple_GET_ITEM(out_avals, i));
        if (a == NULL) {
            Py_DECREF(arrays);
            return NULL;
        }
        PyList_SET_ITEM(arrays, i, a);
    }
    return arrays;
}

static PyObject *
fast_call(FastJit *self, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > MAX_LEAVES || self->cache == NULL || g_array_type == NULL)
        return NULL;
    PyObject *trace = PyObject_GetAttr(g_state, s_trace);
    if (trace == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(trace); /* still referenced by the state: only identity matters */
    if (trace != g_eval_trace)
        return NULL;

    /* The leaves: the arguments themselves when each is an Array or a Python
       scalar (key tag FLAT), else the leaves of the tree of tuples and lists
       that the arguments form (key tag POSITIONAL, after the treedef), as
       JitWrapped._call keys them.  A Python scalar becomes its cached 0-d
       Array (backend.array.scalar_array), as the Python path does. */
    PyObject *leaves[MAX_LEAVES], *owned[MAX_LEAVES];
    Py_ssize_t nl = n, nown = 0, head = 1;
    PyObject *tree = NULL, *key = NULL, *fast = NULL, *ret = NULL, *removals = NULL;
    int flat = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        if (!is_leaf(a)) {
            flat = 0;
            break;
        }
        leaves[i] = a;
    }
    if (!flat) {
        tree = tree_of(args, leaves, &nl);
        if (tree == NULL)
            return NULL;
        head = 2;
    }
    for (Py_ssize_t i = 0; i < nl; i++) {
        if (Py_TYPE(leaves[i]) == g_array_type)
            continue;
        PyObject *arr = PyObject_CallOneArg(
            Py_TYPE(leaves[i]) == g_ndarray_type ? g_ndarray : g_scalar, leaves[i]);
        if (arr == NULL || Py_TYPE(arr) != g_array_type) {
            Py_XDECREF(arr);
            PyErr_Clear(); /* e.g. an int out of range: the Python path says so */
            goto slow;
        }
        owned[nown++] = arr;
        leaves[i] = arr;
    }

    /* Each leaf's aval.key: read from ShapedArray's slot (borrowed), or by
       attribute for another aval type (a new reference, kept in owned). */
    PyObject *akeys[MAX_LEAVES];
    for (Py_ssize_t i = 0; i < nl; i++) {
        PyObject *aval = SLOT(leaves[i], g_off_aval);
        if (aval == NULL || SLOT(leaves[i], g_off_buf) == NULL)
            goto slow;
        PyObject *k;
        if (Py_TYPE(aval) == g_aval_type) {
            k = SLOT(aval, g_off_key);
            if (k == NULL)
                goto slow;
        }
        else {
            k = PyObject_GetAttr(aval, s_key);
            if (k == NULL) {
                PyErr_Clear();
                goto slow;
            }
            owned[nown++] = k;
        }
        akeys[i] = k;
    }

    PyObject *entry = NULL; /* borrowed */
    Py_ssize_t len = PyDict_GET_SIZE(self->cache);
    if (self->m_key != NULL && PyTuple_GET_SIZE(self->m_key) == nl + head
        && len == self->m_len
        && PyTuple_GET_ITEM(self->m_key, 0) == (head == 1 ? g_flat : tree)
        && (head == 1 || PyTuple_GET_ITEM(self->m_key, 1) == g_positional)) {
        Py_ssize_t i = 0;
        while (i < nl && PyTuple_GET_ITEM(self->m_key, i + head) == akeys[i])
            i++;
        if (i == nl) {
            removals = PyObject_GetAttr(self->cache, s_removals);
            if (removals == NULL)
                goto error;
            int same = PyObject_RichCompareBool(removals, self->m_removals, Py_EQ);
            if (same < 0)
                goto error;
            if (same)
                entry = self->m_entry; /* already the most recently used */
        }
    }
    if (entry == NULL) {
        key = PyTuple_New(nl + head);
        if (key == NULL)
            goto error;
        if (head == 1) {
            Py_INCREF(g_flat);
            PyTuple_SET_ITEM(key, 0, g_flat);
        }
        else {
            Py_INCREF(tree);
            PyTuple_SET_ITEM(key, 0, tree);
            Py_INCREF(g_positional);
            PyTuple_SET_ITEM(key, 1, g_positional);
        }
        for (Py_ssize_t i = 0; i < nl; i++) {
            Py_INCREF(akeys[i]);
            PyTuple_SET_ITEM(key, i + head, akeys[i]);
        }
        entry = PyDict_GetItemWithError(self->cache, key); /* borrowed */
        if (entry == NULL) {
            PyErr_Clear();
            goto slow;
        }
        if (len > 1) { /* least recently used order */
            PyObject *r = PyObject_CallMethodOneArg(self->cache, s_move_to_end, key);
            if (r == NULL)
                goto error; /* a real error: report it */
            Py_DECREF(r);
        }
        if (removals == NULL && (removals = PyObject_GetAttr(self->cache, s_removals)) == NULL)
            goto error;
        /* remember this hit (the entry first: key and removals are ours) */
        Py_INCREF(entry);
        Py_XSETREF(self->m_entry, entry);
        Py_INCREF(key);
        Py_XSETREF(self->m_key, key);
        Py_INCREF(removals);
        Py_XSETREF(self->m_removals, removals);
        self->m_len = len;
    }
    Py_INCREF(entry);
    fast = PyObject_GetAttr(entry, s_fast);
    Py_DECREF(entry);
    if (fast == NULL || !PyTuple_Check(fast) || PyTuple_GET_SIZE(fast) != 7) {
        PyErr_Clear();
        goto slow;
    }

    PyObject *run = PyTuple_GET_ITEM(fast, 0), *handlers = PyTuple_GET_ITEM(fast, 1);
    PyObject *single = PyTuple_GET_ITEM(fast, 2), *out_tree = PyTuple_GET_ITEM(fast, 3);
    PyObject *out_avals = PyTuple_GET_ITEM(fast, 4), *consts = PyTuple_GET_ITEM(fast, 5);
    int flat_out = PyTuple_GET_ITEM(fast, 6) == Py_True;
    Py_ssize_t nc = PyTuple_GET_SIZE(consts);
    PyObject *bufs = PyList_New(nc + nl);
    if (bufs == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < nc; i++) {
        PyObject *b = PyTuple_GET_ITEM(consts, i);
        Py_INCREF(b);
        PyList_SET_ITEM(bufs, i, b);
    }
    for (Py_ssize_t i = 0; i < nl; i++) {
        PyObject *b = SLOT(leaves[i], g_off_buf);
        Py_INCREF(b);
        PyList_SET_ITEM(bufs, nc + i, b);
    }
    PyObject *results = PyObject_CallOneArg(run, bufs);
    Py_DECREF(bufs);
    if (results == NULL)
        goto error;
    PyObject *outs = PyObject_CallMethodOneArg(results, s_consume, handlers);
    Py_DECREF(results);
    if (outs == NULL)
        goto error;
    if (!PyList_Check(outs) || PyList_GET_SIZE(outs) != PyTuple_GET_SIZE(out_avals)) {
        Py_DECREF(outs);
        PyErr_SetString(PyExc_SystemError, "sciax fast jit: unexpected executable results");
        goto error;
    }
    if (single != Py_None) {
        ret = new_array(PyList_GET_ITEM(outs, 0), single);
    }
    else {
        PyObject *arrays = arrays_of(outs, out_avals);
        if (arrays != NULL) {
            ret = flat_out /* a tuple of Arrays: no tree to call */
                ? PyList_AsTuple(arrays)
                : PyObject_CallMethodOneArg(out_tree, s_unflatten, arrays);
            Py_DECREF(arrays);
        }
    }
    Py_DECREF(outs);
    if (ret == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_SystemError, "sciax fast jit: no result");
    goto done;

slow: /* not for this path: no error set, the caller takes the Python path */
    ret = NULL;
    goto done;
error: /* an error to report: ret is NULL with the error set */
    ret = NULL;
done:
    Py_XDECREF(fast);
    Py_XDECREF(key);
    Py_XDECREF(removals);
    for (Py_ssize_t i = 0; i < nown; i++)
        Py_DECREF(owned[i]);
    return ret;
}

static PyObject *
FastJit_call(FastJit *self, PyObject *args, PyObject *kwargs)
{
    if (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0) {
        PyObject *r = fast_call(self, args);
        if (r != NULL || PyErr_Occurred())
            return r;
    }
    if (self->slow == NULL) {
        PyErr_SetString(PyExc_TypeError, "jitted function is not initialised");
        return NULL;
    }
    forget(self); /* the Python call may change the cache's order */
    return PyObject_Call(self->slow, args, kwargs);
}

static PyObject *
FastJit_set_fast(FastJit *self, PyObject *args)
{
    PyObject *cache, *slow;
    if (!PyArg_ParseTuple(args, "OO", &cache, &slow))
        return NULL;
    if (cache != Py_None && !PyDict_Check(cache)) {
        PyErr_SetString(PyExc_TypeError, "_set_fast: the cache must be a dict or None");
        return NULL;
    }
    Py_INCREF(slow);
    if (cache == Py_None)
        Py_CLEAR(self->cache);
    else {
        Py_INCREF(cache);
        Py_XSETREF(self->cache, cache);
    }
    Py_XSETREF(self->slow, slow);
    forget(self);
    Py_RETURN_NONE;
}

static int
FastJit_traverse(FastJit *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cache);
    Py_VISIT(self->slow);
    Py_VISIT(self->m_key);
    Py_VISIT(self->m_entry);
    Py_VISIT(self->m_removals);
    return 0;
}

static int
FastJit_clear(FastJit *self)
{
    Py_CLEAR(self->cache);
    Py_CLEAR(self->slow);
    forget(self);
    return 0;
}

static void
FastJit_dealloc(FastJit *self)
{
    PyObject_GC_UnTrack(self);
    FastJit_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef FastJit_methods[] = {
    {"_set_fast", (PyCFunction)FastJit_set_fast, METH_VARARGS,
     "_set_fast(cache, slow): the signature cache to read (None: always take the "
     "Python call) and the Python call for everything else."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject FastJitType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sciax._src._fastjit.FastJit",
    .tp_basicsize = sizeof(FastJit),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Base of sciax's jitted functions: the cache-hit call path in C.",
    .tp_new = PyType_GenericNew,
    .tp_call = (ternaryfunc)FastJit_call,
    .tp_traverse = (traverseproc)FastJit_traverse,
    .tp_clear = (inquiry)FastJit_clear,
    .tp_dealloc = (destructor)FastJit_dealloc,
    .tp_methods = FastJit_methods,
};

/* A static leaf, by exact type: str, int, bool, None. */
static int
is_static(PyObject *x)
{
    return PyUnicode_CheckExact(x) || PyLong_CheckExact(x) || PyBool_Check(x) || x == Py_None;
}

/* The key of ``arrays`` and the call's dynamic arguments, as _memo_key in
   sciax/_src/numpy/eager.py (its definition): the number of arguments when
   they are all Arrays and there are no keywords; else (n, name, type, value,
   ...) for static keywords, then (type, value) per positional argument --
   (type, dyn) for an Array, float or complex, which is dynamic.  Returns 0
   with new references in *key and *dynamic, 1 when the call is not of that
   kind, -1 on error. */
static int
memo_key(PyObject *args, PyObject *kwargs, PyObject *dyn, PyObject **key,
         PyObject **dynamic)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args), nkw = PyDict_GET_SIZE(kwargs), nd = 0;
    int all_arrays = 1;
    for (Py_ssize_t i = 0; i < n && all_arrays; i++)
        all_arrays = Py_TYPE(PyTuple_GET_ITEM(args, i)) == g_array_type;
    if (all_arrays && nkw == 0) {
        if ((*key = PyLong_FromSsize_t(n)) == NULL)
            return -1;
        Py_INCREF(args);
        *dynamic = args;
        return 0;
    }
    PyObject *k = PyTuple_New(1 + 3 * nkw + 2 * n), *d = PyTuple_New(n);
    if (k == NULL || d == NULL)
        goto error;
    PyObject *num = PyLong_FromSsize_t(n);
    if (num == NULL)
        goto error;
    PyTuple_SET_ITEM(k, 0, num);
    Py_ssize_t pos = 0, i = 1;
    PyObject *name, *value;
    while (PyDict_Next(kwargs, &pos, &name, &value)) {
        if (!is_static(value))
            goto other;
        Py_INCREF(name);
        PyTuple_SET_ITEM(k, i++, name);
        Py_INCREF(Py_TYPE(value));
        PyTuple_SET_ITEM(k, i++, (PyObject *)Py_TYPE(value));
        Py_INCREF(value);
        PyTuple_SET_ITEM(k, i++, value);
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *x = PyTuple_GET_ITEM(args, j), *v;
        if (Py_TYPE(x) == g_array_type || PyFloat_CheckExact(x) || PyComplex_CheckExact(x)) {
            v = dyn;
            Py_INCREF(x);
            PyTuple_SET_ITEM(d, nd++, x);
        }
        else if (is_static(x))
            v = x;
        else if (PyTuple_CheckExact(x)) {
            for (Py_ssize_t m = 0; m < PyTuple_GET_SIZE(x); m++)
                if (!PyLong_CheckExact(PyTuple_GET_ITEM(x, m)))
                    goto other;
            v = x;
        }
        else
            goto other;
        Py_INCREF(Py_TYPE(x));
        PyTuple_SET_ITEM(k, i++, (PyObject *)Py_TYPE(x));
        Py_INCREF(v);
        PyTuple_SET_ITEM(k, i++, v);
    }
    if (_PyTuple_Resize(&d, nd) < 0) {
        d = NULL;
        goto error;
    }
    *key = k;
    *dynamic = d;
    return 0;
other:
    Py_DECREF(k);
    Py_DECREF(d);
    return 1;
error:
    Py_XDECREF(k);
    Py_XDECREF(d);
    return -1;
}

/* The hit path of an eager sciax.numpy program (sciax/_src/numpy/eager.py):
 * ``hit(args, kwargs)`` is the jitted program's result when the call is one
 * that wrapper remembers (outside any transformation, its program still
 * current), else ``miss``.  Step for step as the Python definition there
 * (``_hit_path``):
 *   key, dynamic = memo_key(args, kwargs); hit = arrays[key]
 *   hit[2] == cache.removals
 *   cache.move_to_end(hit[0])           (only when it holds > 1 entries)
 *   return hit[1](*dynamic)             (an Exception: del arrays[key], miss)
 */
typedef struct {
    PyObject_HEAD
    PyObject *arrays; /* memo_key -> (signature, program, removals) */
    PyObject *cache;  /* the wrapper's LRUCache of signatures */
    PyObject *miss;   /* returned when the hit path does not apply */
    PyObject *dyn;    /* a dynamic argument's place in a memo key */
} EagerHit;

static PyObject *
EagerHit_call(EagerHit *self, PyObject *targs, PyObject *tkw)
{
    PyObject *args, *kwargs;
    if (tkw != NULL || !PyTuple_Check(targs) || PyTuple_GET_SIZE(targs) != 2) {
        PyErr_SetString(PyExc_TypeError, "EagerHit expects (args, kwargs)");
        return NULL;
    }
    args = PyTuple_GET_ITEM(targs, 0);
    kwargs = PyTuple_GET_ITEM(targs, 1);
    if (!PyTuple_Check(args) || !PyDict_Check(kwargs))
        goto miss;
    if (g_array_type == NULL)
        goto miss;
    PyObject *trace = PyObject_GetAttr(g_state, s_trace);
    if (trace == NULL) {
        PyErr_Clear();
        goto miss;
    }
    Py_DECREF(trace); /* identity only */
    if (trace != g_eval_trace)
        goto miss;
    PyObject *nkey, *dynamic;
    int r = memo_key(args, kwargs, self->dyn, &nkey, &dynamic);
    if (r < 0)
        return NULL;
    if (r > 0)
        goto miss;
    PyObject *hit = PyDict_GetItemWithError(self->arrays, nkey); /* borrowed */
    if (hit == NULL || !PyTuple_Check(hit) || PyTuple_GET_SIZE(hit) != 3) {
        Py_DECREF(nkey);
        Py_DECREF(dynamic);
        if (PyErr_Occurred())
            return NULL;
        goto miss;
    }
    Py_INCREF(hit);
    PyObject *removals = PyObject_GetAttr(self->cache, s_removals);
    int current = removals == NULL ? -1
                  : PyObject_RichCompareBool(PyTuple_GET_ITEM(hit, 2), removals, Py_EQ);
    Py_XDECREF(removals);
    if (current <= 0) {
        Py_DECREF(hit);
        Py_DECREF(nkey);
        Py_DECREF(dynamic);
        if (current < 0)
            return NULL;
        goto miss;
    }
    if (PyObject_Size(self->cache) > 1) {
        PyObject *t = PyObject_CallMethodOneArg(self->cache, s_move_to_end,
                                                PyTuple_GET_ITEM(hit, 0));
        if (t == NULL) {
            Py_DECREF(hit);
            Py_DECREF(nkey);
            Py_DECREF(dynamic);
            return NULL;
        }
        Py_DECREF(t);
    }
    PyObject *out = PyObject_Call(PyTuple_GET_ITEM(hit, 1), dynamic, NULL);
    Py_DECREF(hit);
    Py_DECREF(dynamic);
    if (out == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_Exception)) {
            Py_DECREF(nkey);
            return NULL;
        }
        PyErr_Clear(); /* the wrapper's slow path decides, and raises again */
        if (PyDict_DelItem(self->arrays, nkey) < 0)
            PyErr_Clear();
        Py_DECREF(nkey);
        goto miss;
    }
    Py_DECREF(nkey);
    return out;
miss:
    Py_INCREF(self->miss);
    return self->miss;
}

static PyObject *
EagerHit_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *arrays, *cache, *miss, *dyn;
    if (!PyArg_ParseTuple(args, "O!OOO:EagerHit", &PyDict_Type, &arrays, &cache, &miss,
                          &dyn))
        return NULL;
    EagerHit *self = (EagerHit *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(arrays);
    self->arrays = arrays;
    Py_INCREF(cache);
    self->cache = cache;
    Py_INCREF(miss);
    self->miss = miss;
    Py_INCREF(dyn);
    self->dyn = dyn;
    return (PyObject *)self;
}

static int
EagerHit_traverse(EagerHit *self, visitproc visit, void *arg)
{
    Py_VISIT(self->arrays);
    Py_VISIT(self->cache);
    Py_VISIT(self->miss);
    Py_VISIT(self->dyn);
    return 0;
}

static int
EagerHit_clear(EagerHit *self)
{
    Py_CLEAR(self->arrays);
    Py_CLEAR(self->cache);
    Py_CLEAR(self->miss);
    Py_CLEAR(self->dyn);
    return 0;
}

static void
EagerHit_dealloc(EagerHit *self)
{
    PyObject_GC_UnTrack(self);
    EagerHit_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject EagerHitType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sciax._src._fastjit.EagerHit",
    .tp_basicsize = sizeof(EagerHit),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "EagerHit(arrays, cache, miss, dyn): the hit path of an eager sciax.numpy "
              "program; called as hit(args, kwargs).",
    .tp_new = EagerHit_new,
    .tp_call = (ternaryfunc)EagerHit_call,
    .tp_traverse = (traverseproc)EagerHit_traverse,
    .tp_clear = (inquiry)EagerHit_clear,
    .tp_dealloc = (destructor)EagerHit_dealloc,
};

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(Array, trace_state, eval_trace, flat_tag, positional_tag, flatten, "
     "scalar_array, ShapedArray, numpy.ndarray, ndarray_array)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_fastjit", "The cache-hit path of sciax.jit in C.", -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__fastjit(void)
{
    if (PyType_Ready(&FastJitType) < 0 || PyType_Ready(&EagerHitType) < 0)
        return NULL;
#define INTERN(var, text)                                                             \
    if ((var = PyUnicode_InternFromString(text)) == NULL)                             \
        return NULL;
    INTERN(s_trace, "trace");
    INTERN(s_key, "key");
    INTERN(s_fast, "fast");
    INTERN(s_move_to_end, "move_to_end");
    INTERN(s_consume, "consume_with_handlers");
    INTERN(s_unflatten, "unflatten");
    INTERN(s_removals, "removals");
#undef INTERN
    if ((g_trees = PyDict_New()) == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    Py_INCREF(&FastJitType);
    if (PyModule_AddObject(m, "FastJit", (PyObject *)&FastJitType) < 0) {
        Py_DECREF(&FastJitType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&EagerHitType);
    if (PyModule_AddObject(m, "EagerHit", (PyObject *)&EagerHitType) < 0) {
        Py_DECREF(&EagerHitType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
