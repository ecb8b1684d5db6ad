#include <Python.h>

static PyObject *fastsum_total(PyObject *self, PyObject *args) {
    long a, b;
    if (!PyArg_ParseTuple(args, "ll", &a, &b))
        return NULL;
    return PyLong_FromLong(a + b)
}

static PyMethodDef methods[] = {
    {"total", fastsum_total, METH_VARARGS, "Add two integers."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "fastsum", NULL, -1, methods};

PyMODINIT_FUNC PyInit_fastsum(void) { return PyModule_Create(&module); }
