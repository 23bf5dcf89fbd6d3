/* ProcessPrng for wine 8 (Debian 12), which lacks bcryptprimitives.dll: Go's Windows
 * runtime needs it to start. Only windows_blas.sh uses this; Windows has the real one. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n) {
    return BCryptGenRandom(NULL, data, (ULONG)n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0;
}
