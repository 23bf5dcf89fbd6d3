/* A stand-in for libopenblas.dll with the CBLAS calling convention of cblas_dgemm and
 * cblas_sgemm (row-major only, as Steadfast calls them), written plainly, to check on a
 * Linux machine (mingw-w64 and wine) that Steadfast's Windows build loads a BLAS DLL and
 * passes every argument right: the load check and TestLibraryMatchesGonum compare its
 * products with gonum's. See windows_blas.sh. */
#define EXPORT __declspec(dllexport)

enum { RowMajor = 101, NoTrans = 111 };

#define GEMM(NAME, T)                                                                    \
EXPORT void NAME(int order, int ta, int tb, int m, int n, int k, T alpha, const T *a,  \
                 int lda, const T *b, int ldb, T beta, T *c, int ldc) {                  \
    if (order != RowMajor) return;                                                       \
    for (int i = 0; i < m; i++)                                                          \
        for (int j = 0; j < n; j++) {                                                    \
            T s = 0;                                                                     \
            for (int l = 0; l < k; l++) {                                                \
                T x = ta == NoTrans ? a[i * lda + l] : a[l * lda + i];                   \
                T y = tb == NoTrans ? b[l * ldb + j] : b[j * ldb + l];                   \
                s += x * y;                                                              \
            }                                                                            \
            c[i * ldc + j] = alpha * s + (beta == 0 ? 0 : beta * c[i * ldc + j]);        \
        }                                                                                \
}

GEMM(cblas_dgemm, double)
GEMM(cblas_sgemm, float)

int threads = 0;
EXPORT void openblas_set_num_threads(int t) { threads = t; }
