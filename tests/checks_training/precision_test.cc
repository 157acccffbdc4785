// AutocastScope and the precision names: the names round-trip and a wrong one is refused; inside
// a bf16 scope a matrix product of float32 CPU tensors comes out in bfloat16 and after it in
// float32 again, nested scopes give the outer state back, and an fp32 scope changes nothing.
#include "mlregress/torch/precision.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <stdexcept>
#include <string>

namespace mlregress {
namespace {

using ::testing::HasSubstr;

torch::ScalarType product_dtype() {
  const torch::Tensor a = torch::ones({4, 4}, torch::kFloat);
  const torch::Tensor b = torch::ones({4, 4}, torch::kFloat);
  return torch::mm(a, b).scalar_type();
}

std::string parse_error(std::string_view text) {
  try {
    parse_precision(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "no error";
}

TEST(Precision, NamesRoundTrip) {
  for (const Precision p : {Precision::kFloat32, Precision::kBFloat16, Precision::kFloat16}) {
    EXPECT_EQ(parse_precision(precision_name(p)), p) << precision_name(p);
  }
  EXPECT_EQ(precision_name(Precision::kFloat32), "fp32");
  EXPECT_EQ(precision_name(Precision::kBFloat16), "bf16");
  EXPECT_EQ(precision_name(Precision::kFloat16), "fp16");
}

TEST(Precision, AnUnknownNameIsRefusedWithTheAcceptedOnes) {
  const std::string message = parse_error("bfloat16");
  EXPECT_THAT(message, HasSubstr("'bfloat16'"));
  EXPECT_THAT(message, HasSubstr("fp32, bf16, fp16"));
  EXPECT_THAT(parse_error(""), HasSubstr("''"));
  EXPECT_THAT(parse_error("FP32"), HasSubstr("'FP32'"));
}

TEST(AutocastScope, Bf16RunsTheMatrixProductInBfloat16AndOnlyInsideTheScope) {
  ASSERT_EQ(product_dtype(), torch::kFloat);
  {
    const AutocastScope autocast(Precision::kBFloat16);
    EXPECT_EQ(product_dtype(), torch::kBFloat16);
  }
  EXPECT_EQ(product_dtype(), torch::kFloat);
}

TEST(AutocastScope, ANestedScopeGivesTheOuterStateBack) {
  {
    const AutocastScope outer(Precision::kBFloat16);
    {
      const AutocastScope inner(Precision::kBFloat16);
      EXPECT_EQ(product_dtype(), torch::kBFloat16);
    }
    EXPECT_EQ(product_dtype(), torch::kBFloat16) << "the inner scope switched the outer one off";
  }
  EXPECT_EQ(product_dtype(), torch::kFloat);
}

TEST(AutocastScope, Fp32ChangesNothing) {
  {
    const AutocastScope autocast(Precision::kFloat32);
    EXPECT_EQ(product_dtype(), torch::kFloat);
  }
  EXPECT_EQ(product_dtype(), torch::kFloat);
}

TEST(AutocastScope, Fp16OnTheCpuIsRefused) {
  EXPECT_THROW({ const AutocastScope autocast(Precision::kFloat16); }, std::invalid_argument);
  EXPECT_EQ(product_dtype(), torch::kFloat) << "a refused scope must leave autocast off";
}

}  // namespace
}  // namespace mlregress
