# Puts %globaltimer stamps into a copy of kernels/ (the folder given):
# slot i of g_stamps[block] gets the time thread 0 of the block passed
# stage i (0-17), slot 11 its SM.  Each stamp has alternative (old, new)
# anchors; the first found is used, so that earlier revisions of the
# kernels can be stamped too.  Used by build.sh.
import sys
D = sys.argv[1]


def patch(p, reps):
    p = D + '/' + p
    s = open(p).read()
    for alts in reps:
        for old, new in filter(None, alts):
            if old in s:
                s = s.replace(old, new, 1)
                break
        else:
            if alts[-1] is None:    # optional stamp
                continue
            raise SystemExit('no anchor in %s: %r' % (p, alts[0][0]))
    open(p, 'w').write(s)
HDR = '''namespace cip {
#ifdef CIP_STAMPS
__device__ unsigned long long g_stamps[4096][18];
__device__ __forceinline__ unsigned long long gtime () {
  unsigned long long t; asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
#define STAMP(i) do { if (threadIdx.x == 0) cip::g_stamps[blockIdx.x][i] = cip::gtime (); } while (0)
#else
#define STAMP(i) do {} while (0)
#endif
'''
S0 = '''  STAMP(0);
  if (threadIdx.x == 0) { unsigned sm; asm volatile ("mov.u32 %0, %%smid;" : "=r"(sm)); cip::g_stamps[blockIdx.x][11] = sm; }
'''
patch('cip_histogram.cuh', [
  [('namespace cip {\n', HDR)],
  [('  if (Pass::PASS && threadIdx.x == 0)', S0 + '  if (Pass::PASS && threadIdx.x == 0)')],
  [('''        hist_add_piece<VEC> (col, k, h, v);
      });
  __syncthreads ();
''', '''        hist_add_piece<VEC> (col, k, h, v);
      });
  __syncthreads ();
  STAMP(1);
''')],
  [('''  if (threadIdx.x == 0) {
    __threadfence ();
    last =''', '''  STAMP(2);
  if (threadIdx.x == 0) {
    __threadfence ();
    last ='''), ('''  if (threadIdx.x == 0)
    last =''', '''  STAMP(2);
  if (threadIdx.x == 0)
    last =''')],
  [('''  uint32_t v = 0;
  if (last) {''', '''  STAMP(3);
  uint32_t v = 0;
  if (last) {''')],
  [('''    v = epi (hist);
''', '''    v = epi (hist);
    STAMP(5);
''')],
  [('''    const bool speculated = Pass::SPECULATE && !last && phase != DONE;''',
    '''    STAMP(16);
    const bool speculated = Pass::SPECULATE && !last && phase != DONE;'''),
   ('''    const bool speculated = Pass::SPECULATE && phase != DONE;''',
    '''    STAMP(16);
    const bool speculated = Pass::SPECULATE && phase != DONE;'''), None],
  [('''      if (threadIdx.x == 0) {
        unsigned long long seen;
        while ((unsigned) ((seen = *flag) >> 32) - events != DONE)''',
    '''      STAMP(17);
      if (threadIdx.x == 0) {
        unsigned long long seen;
        while ((unsigned) ((seen = *flag) >> 32) - events != DONE)'''), None],
  [('''    const auto state = pass.begin (val);
    const bool mend''', '''    STAMP(6);
    const auto state = pass.begin (val);
    const bool mend'''), ('''    const auto state = pass.begin (value);
    const bool mend''', '''    STAMP(6);
    const auto state = pass.begin (value);
    const bool mend'''), ('''    __syncthreads ();
    const auto state = pass.begin (value);''', '''    STAMP(6);
    __syncthreads ();
    const auto state = pass.begin (value);''')],
  [('''            pass.template redo<VEC> (spec, state, k, h, v);
        });
''', '''            pass.template redo<VEC> (spec, state, k, h, v);
        });
    STAMP(7);
'''), ('''          pass.template piece<VEC> (state, k, h, v);
        });
''', '''          pass.template piece<VEC> (state, k, h, v);
        });
    STAMP(7);
''')],
])
patch('otsu.cu', [
  [('''    return otsu_threshold_body (cip::hist_take (hist, threadIdx.x), total, p,
        res, ema);''', '''    const uint32_t h = cip::hist_take (hist, threadIdx.x);
    STAMP(4);
    return otsu_threshold_body (h, total, p, res, ema);''')],
  [('''  cip::block_inclusive_scan2<256> (n1, s1, S);  /* barrier 1 */''', '''  cip::block_inclusive_scan2<256> (n1, s1, S);  /* barrier 1 */
  STAMP(8);''')],
  [('''  const int k0 = s_k0;''', '''  STAMP(9);
  const int k0 = s_k0;''')],
  [('''  cip::block_barrier<256> ();  /* barrier 3 */''', '''  cip::block_barrier<256> ();  /* barrier 3 */
  STAMP(10);'''), ('''  __syncthreads ();             /* barrier 3 */''', '''  __syncthreads ();             /* barrier 3 */
  STAMP(10);''')],
  [('''    const double D = fma ((double) dhi,''', '''    STAMP(12);
    const double D = fma ((double) dhi,'''), None],
  [('''    c.top1 = c.sigma + c.err;
  }''', '''    c.top1 = c.sigma + c.err;
  }
  STAMP(13);'''), ('''  s_sigma[i] = sigma;''', '''  STAMP(13);
  s_sigma[i] = sigma;'''), None],
  [('''  if ((i & 31) == 0)
    s_warp[i >> 5] = c;''', '''  STAMP(14);
  if ((i & 31) == 0)
    s_warp[i >> 5] = c;'''), None],
  [('''  return (lo > 0.0 && others < lo) ? c.best : -1;''', '''  STAMP(15);
  return (lo > 0.0 && others < lo) ? c.best : -1;'''), ('''  return (lo > 0.0 && others < lo) ? best : -1;''', '''  STAMP(15);
  return (lo > 0.0 && others < lo) ? best : -1;'''), None],
])
# cudakmeans: per launch, each block's start of iteration i's pass and the
# time its sums were complete (g_kblock), each warp's end of its tasks
# (g_kwarp), each block's SM (g_ksm); iterations 0-11.  Used by
# kmeans_stamps.cu; a revision without these anchors keeps its kmeans.cu
# unstamped (build.sh then builds otsu-stamps alone).
KHDR = '''namespace cg = cooperative_groups;
#ifdef CIP_STAMPS
constexpr int KSTAMP_IT = 12;
__device__ unsigned long long g_kwarp[8192][KSTAMP_IT];
__device__ unsigned long long g_kblock[2048][KSTAMP_IT][2];
__device__ unsigned g_ksm[2048];
__device__ __forceinline__ unsigned long long ktime () {
  unsigned long long t; asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
#define KSTAMP(cond, where) do { if ((cond) && it < KSTAMP_IT) where = ktime (); } while (0)
#else
#define KSTAMP(cond, where) do {} while (0)
#endif
'''
KREPS = [
  [('namespace cg = cooperative_groups;\n', KHDR)],
  [('''    Run < SPATIAL, false > run;
    run.start (0);''', '''    KSTAMP (threadIdx.x == 0, g_kblock[blockIdx.x][it][0]);
#ifdef CIP_STAMPS
    if (threadIdx.x == 0 && it == 0)
      asm volatile ("mov.u32 %0, %%smid;" : "=r" (g_ksm[blockIdx.x]));
#endif
    Run < SPATIAL, false > run;
    run.start (0);''')],
  [('''    run.flush (s.acc, a.wide);
    __syncthreads ();''', '''    KSTAMP ((threadIdx.x & 31) == 0,
        g_kwarp[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32][it]);
    run.flush (s.acc, a.wide);
    __syncthreads ();''')],
  [('''    /* new centres: every block computes the same ones, thread j centre j */''',
    '''    KSTAMP (threadIdx.x == 0, g_kblock[blockIdx.x][it][1]);
    /* new centres: every block computes the same ones, thread j centre j */''')],
]
try:
  patch('kmeans.cu', KREPS)
except SystemExit as e:
  print('kmeans.cu not stamped: %s' % e, file=sys.stderr)
