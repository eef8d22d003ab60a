// Experiment: per-block %globaltimer stamps of cip_otsu_frame at 4K.
#define CIP_STAMPS 1
#include "otsu.cu"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
extern "C" {
int load_photo (const char *path, int w, int h);
uint8_t *make_content (int w, int h, int bpp);
}
__global__ void res_kernel (unsigned long long *d) {
  unsigned long long a = cip::gtime (), b;
  for (int i = 0; i < 64; i++) { do b = cip::gtime (); while (b == a); d[i] = b - a; a = b; }
}
int main (int argc, char **argv) {
  int W = argc > 2 ? atoi (argv[1]) : 3840, H = argc > 2 ? atoi (argv[2]) : 2160;
  load_photo ("build-exp/a.rgb", 512, 512);
  uint8_t *img = make_content (W, H, 1);
  uint8_t *src, *dst; uint32_t *state; CipOtsuResult *res; float *ema;
  cudaMalloc (&src, (size_t) W * H); cudaMalloc (&dst, (size_t) W * H);
  cudaMalloc (&state, CIP_OTSU_STATE_WORDS * 4); cudaMemset (state, 0, CIP_OTSU_STATE_WORDS * 4);
  cudaMalloc (&res, sizeof *res); cudaMalloc (&ema, 4);
  cudaMemcpy (src, img, (size_t) W * H, cudaMemcpyHostToDevice);
  unsigned long long *dr; cudaMalloc (&dr, 64 * 8);
  res_kernel<<<1,1>>> (dr); unsigned long long hr[64]; cudaMemcpy (hr, dr, 512, cudaMemcpyDeviceToHost);
  std::sort (hr, hr + 64); printf ("globaltimer step: min %llu median %llu ns\n", hr[0], hr[32]);
  CipOtsuParams p = {}; cudaStream_t s; cudaStreamCreate (&s);
  const int R = 41; const int NS = 12;
  std::vector<std::vector<double>> ph (NS + 2);
  int grid = 0; unsigned thr = 0;
  for (int r = 0; r < R + 3; r++) {
    cudaMemsetAsync ((void *) 0, 0, 0, s);
    void *sym; cudaGetSymbolAddress (&sym, cip::g_stamps); cudaMemsetAsync (sym, 0, sizeof (cip::g_stamps), s);
    cudaError_t e = cip_otsu_frame (src, W, dst, W, W, H, state, state + CIP_OTSU_HIST_WORDS, &p, 0, res, ema, s);
    if (e) { printf ("err %s\n", cudaGetErrorString (e)); return 1; }
    cudaStreamSynchronize (s);
    static unsigned long long st[4096][NS];
    cudaMemcpyFromSymbol (st, cip::g_stamps, sizeof st);
    CipOtsuResult hres; cudaMemcpy (&hres, res, sizeof hres, cudaMemcpyDeviceToHost); thr = hres.threshold;
    if (r < 3) continue;
    unsigned long long t0 = ~0ull; int n = 0, lastb = -1;
    for (int b = 0; b < 4096 && st[b][0]; b++) { n = b + 1; t0 = std::min (t0, st[b][0]); if (st[b][4]) lastb = b; }
    grid = n;
    for (int i = 0; i < NS; i++) {
      if (i == 4 || i == 5 || (i >= 8 && i <= 10)) { if (lastb >= 0 && st[lastb][i]) ph[i].push_back ((st[lastb][i] - t0) / 1e3); continue; }
      unsigned long long m = 0; for (int b = 0; b < n; b++) if (st[b][i]) m = std::max (m, st[b][i] - t0);
      if (m) ph[i].push_back (m / 1e3);
    }
    unsigned long long m0 = 0; for (int b = 0; b < n; b++) m0 = std::max (m0, st[b][0] - t0); ph[NS].push_back (m0 / 1e3);
    // median block's hist done
    std::vector<double> v1; for (int b = 0; b < n; b++) v1.push_back ((st[b][1] - t0) / 1e3); std::sort (v1.begin (), v1.end ()); ph[NS + 1].push_back (v1[n / 2]);
  }
  const char *names[] = { "start (last block)", "hist loop done (last)", "merged+fenced (last)", "arrived (last)", "last: hist taken", "last: epilogue done", "released (last seen)", "pass done (last)", "last: scan barrier1", "last: barrier2", "last: barrier3", "-", "start spread (max)", "hist done (median block)" };
  printf ("%dx%d grid %d threshold %u, medians over %d launches, us from first block start\n", W, H, grid, thr, R);
  for (int i = 0; i < NS + 2; i++) { if (ph[i].empty ()) continue; std::sort (ph[i].begin (), ph[i].end ()); printf ("  %-28s %7.2f  (p10 %.2f p90 %.2f)\n", names[i], ph[i][ph[i].size () / 2], ph[i][ph[i].size () / 10], ph[i][ph[i].size () * 9 / 10]); }
  {
    // last launch: per-block detail
    static unsigned long long st[4096][NS];
    cudaMemcpyFromSymbol (st, cip::g_stamps, sizeof st);
    unsigned long long t0 = ~0ull; int n = grid;
    for (int b = 0; b < n; b++) t0 = std::min (t0, st[b][0]);
    const int groups = (W + 1023) / 1024; const long long total = (long long) groups * H, warps = 8LL * n;
    std::vector<double> sm_last (200, 0), sm_first (200, 1e9); std::vector<int> sm_blocks (200, 0), sm_groups (200, 0);
    std::vector<std::pair<double,int>> v;
    for (int b = 0; b < n; b++) {
      int sm = (int) st[b][11]; double t = (st[b][1] - t0) / 1e3; int g = 0;
      for (int w = 0; w < 8; w++) for (long long x = (long long) b * 8 + w; x < total; x += warps) g++;
      sm_last[sm] = std::max (sm_last[sm], t); sm_first[sm] = std::min (sm_first[sm], t); sm_blocks[sm]++; sm_groups[sm] += g;
      v.push_back ({t, b});
    }
    std::sort (v.begin (), v.end ());
    printf ("  blocks by hist-done time (us, block, sm, groups, start):\n");
    for (int q = 0; q <= 20; q++) { int i = std::min (n - 1, q * (n - 1) / 20); int b = v[i].second; int g = 0;
      for (int w = 0; w < 8; w++) for (long long x = (long long) b * 8 + w; x < total; x += warps) g++;
      printf ("    %5.2f  b%-4d sm%-4llu g%-3d start %.2f\n", v[i].first, b, st[b][11], g, (st[b][0] - t0) / 1e3); }
    std::vector<std::pair<double,int>> s2;
    for (int sm = 0; sm < 200; sm++) if (sm_blocks[sm]) s2.push_back ({sm_last[sm], sm});
    std::sort (s2.begin (), s2.end ());
    printf ("  SMs by last block's hist-done (us, sm, blocks, groups, first done):\n");
    for (int q = 0; q <= 10; q++) { int i = std::min ((int) s2.size () - 1, q * ((int) s2.size () - 1) / 10); int sm = s2[i].second;
      printf ("    %5.2f sm%-4d blocks %d groups %d first %.2f\n", s2[i].first, sm, sm_blocks[sm], sm_groups[sm], sm_first[sm]); }
  }
  // plain event timing, back-to-back launches
  cudaEvent_t a, b; cudaEventCreate (&a); cudaEventCreate (&b);
  std::vector<float> ts;
  for (int rep = 0; rep < 11; rep++) {
    cudaEventRecord (a, s);
    for (int i = 0; i < 50; i++) cip_otsu_frame (src, W, dst, W, W, H, state, state + CIP_OTSU_HIST_WORDS, &p, 0, res, ema, s);
    cudaEventRecord (b, s); cudaEventSynchronize (b); float ms; cudaEventElapsedTime (&ms, a, b); ts.push_back (ms * 1e3f / 50);
  }
  std::sort (ts.begin (), ts.end ()); printf ("  back-to-back launches (stamped build): %.2f us/frame\n", ts[5]);
  ts.clear ();
  for (int rep = 0; rep < 11; rep++) {
    cudaEventRecord (a, s);
    for (int i = 0; i < 50; i++) cip_otsu_histogram (src, W, W, H, state, state + CIP_OTSU_HIST_WORDS, s);
    cudaEventRecord (b, s); cudaEventSynchronize (b); float ms; cudaEventElapsedTime (&ms, a, b); ts.push_back (ms * 1e3f / 50);
  }
  std::sort (ts.begin (), ts.end ()); printf ("  histogram alone, back-to-back: %.2f us/frame\n", ts[5]);
  return 0;
}
