#include "observers/curve_csv_writer.h"

#include <fmt/format.h>

#include <cmath>

#include "storage/curve_csv.h"
#include "support/atomic_file.h"

namespace mlregress::internal {

void CurveCsvWriter::on_curve(const TestResult& /*test*/, const RecordedCurve& curve) {
  write_file_atomically(run_folder_ + "/" + curve.csv_file, render_curve_csv(curve.curve));
}

}  // namespace mlregress::internal
