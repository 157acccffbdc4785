// report.html's "Batches" block of a test: each batch it recorded (record_batch) as a person
// looks at it, each example beside its label. Images as a grid of inline BMP data: URIs (no image
// file; the page's CSP allows images from data: only), decoded text as a table of escaped <pre>
// rows, tabular rows as a <table>. Every name, label and text is escaped: none becomes markup.
#pragma once

#include <string>

#include "record/run_result.h"

namespace mlregress::internal {

/// "" when the test recorded no batch.
std::string batches_html(const TestResult& test);

}  // namespace mlregress::internal
