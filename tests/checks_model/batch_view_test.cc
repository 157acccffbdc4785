// Batch views from tensors (image_batch, text_batch, table_batch): what a person looking at the
// report sees must be what the model received. Planted: channels swapped by a BGR read, a batch
// normalised twice, labels shifted by one example, images too large for the page, and shapes or
// constants that do not fit.
#include "mlregress/torch/batch_view.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace mlregress {
namespace {

const std::vector<double> kMean = {0.485, 0.456, 0.406};
const std::vector<double> kStd = {0.229, 0.224, 0.225};

torch::Tensor normalise(const torch::Tensor& images) {
  const torch::Tensor mean = torch::tensor(kMean, torch::kFloat).view({1, 3, 1, 1});
  const torch::Tensor sd = torch::tensor(kStd, torch::kFloat).view({1, 3, 1, 1});
  return (images - mean) / sd;
}

// The RGB value of pixel (y, x) of image n (a grey image's value three times).
std::array<int, 3> rgb(const BatchView& view, std::int64_t n, std::int64_t y, std::int64_t x) {
  const auto at =
      static_cast<std::size_t>(((n * view.height + y) * view.width + x) * view.channels);
  const std::size_t g = view.channels == 3 ? 1 : 0, b = view.channels == 3 ? 2 : 0;
  return {view.pixels[at], view.pixels[at + g], view.pixels[at + b]};
}

// Reddish 8-bit images: R 200, G 100, B 30, with a little texture.
torch::Tensor reddish_bytes() {
  torch::Tensor images = torch::zeros({2, 3, 4, 4}, torch::kByte);
  images.select(1, 0).fill_(200);
  images.select(1, 1).fill_(100);
  images.select(1, 2).fill_(30);
  images.select(1, 1).select(2, 0).fill_(110);
  return images;
}

TEST(ImageBatch, ChannelsSwappedByABgrReadShowAsSwappedColours) {
  const torch::Tensor raw = reddish_bytes();
  // Through the pipeline: scaled to [0, 1], normalised; the view undoes it with the constants.
  const ImageViewOptions declared{.mean = kMean, .std = kStd};
  const BatchView right =
      image_batch(normalise(raw.to(torch::kFloat) / 255.0), torch::Tensor(), declared);
  const BatchView swapped =
      image_batch(normalise(raw.flip(1).to(torch::kFloat) / 255.0), torch::Tensor(), declared);
  EXPECT_EQ(batch_view_problem(right), "");
  EXPECT_EQ(right.clamped_fraction, 0.0);
  EXPECT_EQ(rgb(right, 0, 0, 0), (std::array<int, 3>{200, 110, 30}));
  EXPECT_EQ(rgb(right, 1, 3, 3), (std::array<int, 3>{200, 100, 30}));
  // The planted BGR read: red and blue trade places in every stored pixel.
  for (std::int64_t n = 0; n < 2; ++n) {
    for (std::int64_t y = 0; y < 4; ++y) {
      for (std::int64_t x = 0; x < 4; ++x) {
        const std::array<int, 3> a = rgb(right, n, y, x), b = rgb(swapped, n, y, x);
        EXPECT_EQ(b[0], a[2]);
        EXPECT_EQ(b[1], a[1]);
        EXPECT_EQ(b[2], a[0]);
      }
    }
  }
  // Declared as BGR, the same tensor is drawn in its true colours.
  const BatchView declared_bgr = image_batch(raw.flip(1), torch::Tensor(), {.bgr = true});
  EXPECT_EQ(declared_bgr.pixels, image_batch(raw).pixels);
  EXPECT_NE(declared_bgr.note.find("BGR drawn as RGB"), std::string::npos);
}

TEST(ImageBatch, ABgrBatchIsUnNormalisedWithItsOwnChannelOrderThenDrawnAsRgb) {
  // An OpenCV pipeline: BGR tensors normalised with BGR-ordered constants. Declared as such, the
  // view equals the RGB pipeline's; un-normalising after the flip (the planted order) would put
  // blue's mean on red and differ.
  torch::manual_seed(0);
  const torch::Tensor rgb_images = torch::rand({2, 3, 4, 4});
  const BatchView from_rgb =
      image_batch(normalise(rgb_images), torch::Tensor(), {.mean = kMean, .std = kStd});
  const std::vector<double> bgr_mean(kMean.rbegin(), kMean.rend());
  const std::vector<double> bgr_std(kStd.rbegin(), kStd.rend());
  const torch::Tensor bgr_images = rgb_images.flip(1);
  const torch::Tensor bgr_normalised =
      (bgr_images - torch::tensor(bgr_mean, torch::kFloat).view({1, 3, 1, 1})) /
      torch::tensor(bgr_std, torch::kFloat).view({1, 3, 1, 1});
  const BatchView from_bgr =
      image_batch(bgr_normalised, torch::Tensor(), {.mean = bgr_mean, .std = bgr_std, .bgr = true});
  ASSERT_EQ(from_bgr.pixels.size(), from_rgb.pixels.size());
  int off_by_more_than_one = 0;
  for (std::size_t i = 0; i < from_rgb.pixels.size(); ++i) {
    off_by_more_than_one +=
        std::abs(static_cast<int>(from_bgr.pixels[i]) - static_cast<int>(from_rgb.pixels[i])) > 1;
  }
  EXPECT_EQ(off_by_more_than_one, 0);
}

TEST(ImageBatch, ABatchNormalisedTwiceIsClampedAndSaysHowMuch) {
  torch::manual_seed(0);
  const torch::Tensor images = torch::rand({8, 3, 8, 8});
  const ImageViewOptions declared{.mean = kMean, .std = kStd};
  const BatchView once = image_batch(normalise(images), torch::Tensor(), declared);
  EXPECT_EQ(once.clamped_fraction, 0.0);
  const torch::Tensor expected =
      (images * 255.0).round().to(torch::kByte).permute({0, 2, 3, 1}).contiguous();
  int off_by_more_than_one = 0;
  for (std::size_t i = 0; i < once.pixels.size(); ++i) {
    off_by_more_than_one += std::abs(static_cast<int>(once.pixels[i]) -
                                     static_cast<int>(expected.data_ptr<std::uint8_t>()[i])) > 1;
  }
  EXPECT_EQ(off_by_more_than_one, 0);
  // The planted bug: undone once, the values are still normalised, mostly outside [0, 255].
  const BatchView twice = image_batch(normalise(normalise(images)), torch::Tensor(), declared);
  EXPECT_GT(twice.clamped_fraction, 0.5);
  std::size_t saturated = 0;
  for (std::uint8_t p : twice.pixels) saturated += p == 0 || p == 255;
  EXPECT_GT(saturated, twice.pixels.size() / 2);
  EXPECT_NE(twice.note.find("un-normalised with mean [0.485, 0.456, 0.406]"), std::string::npos);
}

TEST(ImageBatch, EachLabelStaysBesideItsExample) {
  // Image i is a flat grey of 10·i, labelled i: the pair can be checked by eye and here.
  const torch::Tensor images = (torch::arange(6, torch::kLong) * 10)
                                   .to(torch::kByte)
                                   .view({6, 1, 1, 1})
                                   .expand({6, 1, 2, 2});
  const torch::Tensor labels = torch::arange(6, torch::kLong);
  const BatchView view = image_batch(images, labels, {.max_images = 4});
  ASSERT_EQ(batch_examples(view), 4);
  ASSERT_EQ(view.labels.size(), 4u);
  EXPECT_EQ(batch_view_problem(view), "");
  for (std::int64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(view.labels[static_cast<std::size_t>(k)], std::to_string(rgb(view, k, 1, 1)[0] / 10));
  }
  EXPECT_NE(view.note.find("the first 4 of 6 examples"), std::string::npos);
  // The planted bug: labels shifted by one. The view keeps the pairs, so every pair is wrong.
  const BatchView shifted = image_batch(images, labels.roll(1), {.max_images = 4});
  for (std::int64_t k = 0; k < 4; ++k) {
    EXPECT_NE(shifted.labels[static_cast<std::size_t>(k)],
              std::to_string(rgb(shifted, k, 1, 1)[0] / 10));
  }
  EXPECT_EQ(shifted.labels[0], "5");
}

TEST(ImageBatch, ALargeImageIsShrunkToFitThePage) {
  torch::manual_seed(0);
  const BatchView view =
      image_batch(torch::rand({2, 3, 64, 48}), torch::Tensor(), {.max_side = 32});
  EXPECT_EQ(view.height, 32);
  EXPECT_EQ(view.width, 24);
  EXPECT_EQ(view.channels, 3);
  EXPECT_EQ(batch_view_problem(view), "");
  EXPECT_NE(view.note.find("shrunk from 64x48"), std::string::npos);
  EXPECT_NE(view.note.find("scaled from the batch's range"), std::string::npos);
}

TEST(ImageBatch, RefusesWhatIsNotAnImageBatch) {
  EXPECT_THROW(image_batch(torch::zeros({2, 4, 8, 8})), std::invalid_argument);  // 4 channels
  EXPECT_THROW(image_batch(torch::zeros({3, 8, 8})), std::invalid_argument);     // no batch
  EXPECT_THROW(image_batch(torch::zeros({2, 3, 8, 8}), torch::Tensor(),
                           {.mean = {0.5, 0.5}, .std = {0.2, 0.2}}),
               std::invalid_argument);  // two constants for three channels
  EXPECT_THROW(
      image_batch(torch::zeros({2, 3, 8, 8}), torch::Tensor(), {.mean = {0.5}, .std = {0.0}}),
      std::invalid_argument);
  EXPECT_THROW(image_batch(torch::zeros({2, 3, 8, 8}), torch::arange(3)), std::invalid_argument);
  EXPECT_THROW(image_batch(torch::zeros({2, 3, 8, 8}), std::vector<std::string>{"cat"}),
               std::invalid_argument);
}

TEST(TextBatch, KeepsTheFirstRowsBesideTheirLabels) {
  std::vector<std::string> texts;
  for (int i = 0; i < 20; ++i) texts.push_back("row " + std::to_string(i));
  const BatchView view = text_batch(texts, torch::arange(20), 8);
  EXPECT_EQ(view.kind, BatchView::Kind::kText);
  ASSERT_EQ(view.texts.size(), 8u);
  ASSERT_EQ(view.labels.size(), 8u);
  EXPECT_EQ(view.texts[7], "row 7");
  EXPECT_EQ(view.labels[7], "7");
  EXPECT_EQ(view.note, "the first 8 of 20 examples");
  EXPECT_EQ(batch_view_problem(view), "");
  EXPECT_THROW(text_batch(texts, std::vector<std::string>{"a"}), std::invalid_argument);
}

TEST(TableBatch, KeepsRowsAndNamesTheColumns) {
  const torch::Tensor rows = torch::tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}).view({3, 2});
  const BatchView view = table_batch(rows, {}, torch::tensor({0.5, 1.5, 2.5}), 2);
  EXPECT_EQ(view.kind, BatchView::Kind::kTable);
  EXPECT_EQ(view.columns, (std::vector<std::string>{"x0", "x1"}));
  ASSERT_EQ(view.rows.size(), 2u);
  EXPECT_EQ(view.rows[1], (std::vector<double>{3.0, 4.0}));
  EXPECT_EQ(view.labels, (std::vector<std::string>{"0.5", "1.5"}));
  EXPECT_EQ(batch_view_problem(view), "");
  EXPECT_THROW(table_batch(rows, {"age"}), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress
