// How long cudaHostRegister of one 640x480 RGBA frame (1.2 MB) takes while
// N threads of the same process work the GPU as our pipelines do: each
// frame a copy in from page-locked memory, a kernel, a copy out, an event,
// then the wait.  WAIT=poll: cudaEventQuery and a 20 us sleep (our elements'
// way); WAIT=block: cudaEventSynchronize on a blocking-sync event;
// WAIT=none: the threads only poll an event already done (the driver's lock
// taken, no GPU work).  Prints, for each N, the registrations' median and
// maximum and the workers' frames a second.  GATE=1: a registration first
// closes a gate the workers pass before they submit, and waits for those
// inside to leave (no submission while the driver registers); PAR=K: K
// threads register, 16 each, at once.  docs/notes/streams.md.
//   nvcc -O2 -o regtime docs/notes/regtime.cu -lpthread
//   ./regtime [N ...]
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <vector>

static const size_t in_bytes = 640 * 480 * 4, out_bytes = 640 * 480;
static std::atomic<bool> stop;
static std::atomic<long> frames;
static int wait_mode;             // 0 poll, 1 block, 2 none
static bool gate_on;
static std::atomic<int> gate, inside;

static double
now_us ()
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

__global__ void
gray (const uchar4 * in, unsigned char *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (in[i].x * 77 + in[i].y * 150 + in[i].z * 29) >> 8;
}

static void *
worker (void *)
{
  cudaStream_t s;
  cudaEvent_t e;
  void *h_in, *h_out, *d_in, *d_out;
  cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking);
  cudaEventCreateWithFlags (&e, cudaEventDisableTiming |
      (wait_mode == 1 ? cudaEventBlockingSync : 0));
  cudaMallocHost (&h_in, in_bytes);
  cudaMallocHost (&h_out, out_bytes);
  cudaMalloc (&d_in, in_bytes);
  cudaMalloc (&d_out, out_bytes);
  memset (h_in, 1, in_bytes);
  cudaEventRecord (e, s);
  cudaEventSynchronize (e);
  while (!stop.load ()) {
    if (gate_on) {
      for (;;) {
        while (gate.load ())
          usleep (20);
        inside++;
        if (!gate.load ())
          break;
        inside--;
      }
    }
    if (wait_mode != 2) {
      cudaMemcpyAsync (d_in, h_in, in_bytes, cudaMemcpyHostToDevice, s);
      gray <<< (out_bytes + 255) / 256, 256, 0, s >>> ((const uchar4 *) d_in,
          (unsigned char *) d_out, (int) out_bytes);
      cudaMemcpyAsync (h_out, d_out, out_bytes, cudaMemcpyDeviceToHost, s);
      cudaEventRecord (e, s);
    }
    if (gate_on)
      inside--;
    if (wait_mode == 1)
      cudaEventSynchronize (e);
    else
      while (cudaEventQuery (e) == cudaErrorNotReady)
        usleep (20);
    if (wait_mode == 2)
      usleep (20);
    frames++;
  }
  cudaStreamSynchronize (s);
  cudaFree (d_in);
  cudaFree (d_out);
  cudaFreeHost (h_in);
  cudaFreeHost (h_out);
  cudaEventDestroy (e);
  cudaStreamDestroy (s);
  return NULL;
}

static std::vector<double> reg_us;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

static void *
registrar (void *)
{
  for (int k = 0; k < 16; k++) {
    void *p = aligned_alloc (64, in_bytes);
    memset (p, k, in_bytes);
    double a = now_us ();
    if (gate_on) {
      gate++;
      while (inside.load ())
        ;
    }
    cudaError_t err = cudaHostRegister (p, in_bytes,
        cudaHostRegisterPortable);
    if (gate_on)
      gate--;
    double d = now_us () - a;
    pthread_mutex_lock (&reg_lock);
    reg_us.push_back (d);
    pthread_mutex_unlock (&reg_lock);
    if (err != cudaSuccess)
      printf ("register: %s\n", cudaGetErrorName (err));
    else
      cudaHostUnregister (p);
    free (p);
    usleep (20000);
  }
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *w = getenv ("WAIT");
  std::vector<int> ns;
  const int par = getenv ("PAR") ? atoi (getenv ("PAR")) : 1;
  gate_on = getenv ("GATE") && atoi (getenv ("GATE"));
  wait_mode = !w || !strcmp (w, "poll") ? 0 : !strcmp (w, "block") ? 1 : 2;
  for (int i = 1; i < argc; i++)
    ns.push_back (atoi (argv[i]));
  if (ns.empty ())
    ns = {0, 1, 4, 16, 64, 256};
  cudaFree (0);
  printf ("wait %s, gate %d, %d registering; cudaHostRegister (Portable) "
      "of %zu bytes, 16 times each\n", w ? w : "poll", gate_on, par,
      in_bytes);
  printf ("threads | median us | max us | worker fps | registrations/s\n");
  for (int n : ns) {
    std::vector<pthread_t> t (n);
    stop = false;
    for (int i = 0; i < n; i++)
      pthread_create (&t[i], NULL, worker, NULL);
    usleep (500000);
    long f0 = frames.load ();
    double t0 = now_us ();
    reg_us.clear ();
    std::vector<pthread_t> r (par);
    for (int i = 0; i < par; i++)
      pthread_create (&r[i], NULL, registrar, NULL);
    for (int i = 0; i < par; i++)
      pthread_join (r[i], NULL);
    double wall = now_us () - t0;
    double fps = (frames.load () - f0) / ((now_us () - t0) * 1e-6);
    stop = true;
    for (int i = 0; i < n; i++)
      pthread_join (t[i], NULL);
    std::vector<double> us = reg_us;
    std::sort (us.begin (), us.end ());
    printf ("%d | %.0f | %.0f | %.0f | %.0f\n", n, us[us.size () / 2],
        us.back (), fps, us.size () / (wall * 1e-6));
    fflush (stdout);
  }
  return 0;
}
