// HETERO_TRACE=<file> writes every chunk, copy, wait and launch in the
// Chrome trace format: the chunks' iterations per member and kernel are the
// statistics', and the copies' bytes per direction the statistics' totals.
// tools/trace-plot.py draws it, and tools/launch-costs.py sums where the
// host's time per launch went (the second half of the 20 launches). A path that cannot be created stops the
// program before any kernel runs.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_TRACE=%t.json HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_SHARES=fixed %run-hetero %t 2>%t.stats | %FileCheck %s
// RUN: %trace-check %t.json %t.stats | %FileCheck %s --check-prefix=TRACE
// RUN: %trace-plot %t.json %t.svg | %FileCheck %s --check-prefix=PLOT
// RUN: grep -q "<text [^>]*class=\"label\">sim:1</text>" %t.svg
// RUN: %not %trace-plot %t.json %t.png 2>&1 | %FileCheck %s --check-prefix=PNG
// RUN: %launch-costs --self-test | %FileCheck %s --check-prefix=COSTS-SELF
// RUN: %host-profile --self-test | %FileCheck %s --check-prefix=PROFILE-SELF
// RUN: %launch-costs %t.json --csv %t.csv | %FileCheck %s --check-prefix=COSTS
// RUN: grep -q "^plan:sections," %t.csv
// RUN: env HETERO_TRACE=%t.missing/dir/x.json %not %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=BAD
// CHECK: sum=
// TRACE-DAG: trace-check: {{.*}}main_l{{[0-9]+}} sim:0 {{[1-9][0-9]*}} iterations
// TRACE-DAG: trace-check: {{.*}}main_l{{[0-9]+}} sim:1 {{[1-9][0-9]*}} iterations
// TRACE-DAG: trace-check: h2d {{[0-9]+}} bytes
// TRACE-DAG: trace-check: d2h {{[0-9]+}} bytes
// TRACE: trace-check: lanes {{.*}}host{{.*}}sim:0, sim:1
// PLOT: trace-plot: wrote {{.*}}.svg ({{[0-9]+}}x{{[0-9]+}}, {{[3-9]}} lanes, {{[1-9][0-9]*}} events)
// PNG: trace-plot: {{.*}}.png: the plot is SVG now; name the output .svg
// COSTS-SELF: launch-costs: self-test passed
// PROFILE-SELF: host-profile: self-test passed
// COSTS: launch-costs: 10 launches in
// COSTS-DAG: plan:sections
// COSTS-DAG: plan:prepare
// COSTS-DAG: plan:shares
// BAD: hetero: error: HETERO_TRACE={{.*}}x.json: cannot create the file
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 512, m = 256, iters = 10;
  double *a = malloc(sizeof(double) * n * m),
         *b = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n * m; ++i)
    a[i] = b[i] = (i % 7) * 0.5;
#pragma omp target data map(tofrom : a[0 : n * m]) map(to : b[0 : n * m])
  for (int it = 0; it < iters; ++it) {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < m - 1; ++j)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] +
                               a[i * m + j - 1] + a[i * m + j + 1]);
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < m - 1; ++j)
        a[i * m + j] = b[i * m + j];
  }
  double sum = 0;
  for (int i = 0; i < n * m; ++i)
    sum += a[i];
  printf("sum=%.6f\n", sum);
  free(a);
  free(b);
  return 0;
}
