// mlregress_tokenizer: the example language model's SentencePiece tokenizer as a process of its
// own. SentencePiece carries a protobuf; linked into a LibTorch test binary it deadlocks
// TorchScript (the wheel's LibTorch) or crashes at start-up (Debian's, which links the system's
// protobuf). So the suites never link it: lm_tokenizer.cc runs this tool on files.
//
//   mlregress_tokenizer train VOCABULARY_SIZE CORPUS MODEL   one sentence a line in CORPUS
//   mlregress_tokenizer encode MODEL TEXT IDS                a line of ids for each line of text
//   mlregress_tokenizer decode MODEL IDS TEXT                the inverse
//   mlregress_tokenizer size MODEL OUT                       the vocabulary size
//   mlregress_tokenizer version OUT                          SentencePiece's version
//
// Exit 0 on success; 2 for a bad command line; 3 when a file cannot be read or written or the
// model is not a model; 4 when SentencePiece refuses the input. Every message names the file.
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kUsage = 2;
constexpr int kFile = 3;
constexpr int kRefused = 4;

struct ToolError : std::runtime_error {
  int exit_code;
  ToolError(int code, const std::string& message) : std::runtime_error(message), exit_code(code) {}
};

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ToolError(kFile, path + ": cannot read");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw ToolError(kFile, path + ": cannot write");
}

// Feeds the corpus to the trainer line by line, so nothing about the file lands in the model.
class LineIterator : public sentencepiece::SentenceIterator {
 public:
  explicit LineIterator(const std::vector<std::string>& lines) : lines_(lines) {}
  bool done() const override { return next_ >= lines_.size(); }
  void Next() override { ++next_; }
  const std::string& value() const override { return lines_[next_]; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  const std::vector<std::string>& lines_;
  std::size_t next_ = 0;
};

// BPE on one thread with no input file recorded in the model: the same corpus gives the same
// model bytes on every machine with the same SentencePiece.
void train(const std::string& size, const std::string& corpus, const std::string& model_path) {
  const std::vector<std::string> lines = read_lines(corpus);
  LineIterator input(lines);
  std::string model;
  const auto status = sentencepiece::SentencePieceTrainer::Train(
      "--model_type=bpe --vocab_size=" + size +
          " --character_coverage=1.0 --num_threads=1 --minloglevel=2",
      &input, &model);
  if (!status.ok()) {
    throw ToolError(kRefused, corpus + ": training a tokenizer of " + size +
                                  " pieces failed: " + status.ToString());
  }
  write_text(model_path, model);
}

void load(sentencepiece::SentencePieceProcessor& processor, const std::string& path) {
  const auto status = processor.Load(path);
  if (!status.ok()) {
    throw ToolError(kFile, path + ": not a readable tokenizer model (" + status.ToString() + ")");
  }
}

void encode(const std::string& model, const std::string& text, const std::string& ids) {
  sentencepiece::SentencePieceProcessor processor;
  load(processor, model);
  std::ostringstream out;
  for (const std::string& line : read_lines(text)) {
    std::vector<int> pieces;
    const auto status = processor.Encode(line, &pieces);
    if (!status.ok()) throw ToolError(kRefused, text + ": cannot encode: " + status.ToString());
    for (std::size_t i = 0; i < pieces.size(); ++i) out << (i > 0 ? " " : "") << pieces[i];
    out << '\n';
  }
  write_text(ids, out.str());
}

std::vector<int> parse_ids(const std::string& line, const std::string& path, std::size_t number) {
  std::istringstream in(line);
  std::vector<int> ids;
  for (std::string word; in >> word;) {
    char* end = nullptr;
    const long id = std::strtol(word.c_str(), &end, 10);
    if (*end != '\0' || word.empty()) {
      throw ToolError(kRefused, path + ":" + std::to_string(number) +
                                    ": expected token ids, got '" + word + "'");
    }
    ids.push_back(static_cast<int>(id));
  }
  return ids;
}

void decode(const std::string& model, const std::string& ids, const std::string& text) {
  sentencepiece::SentencePieceProcessor processor;
  load(processor, model);
  std::ostringstream out;
  std::size_t number = 0;
  for (const std::string& line : read_lines(ids)) {
    std::string decoded;
    const auto status = processor.Decode(parse_ids(line, ids, ++number), &decoded);
    if (!status.ok()) throw ToolError(kRefused, ids + ": cannot decode: " + status.ToString());
    out << decoded << '\n';
  }
  write_text(text, out.str());
}

void size(const std::string& model, const std::string& out) {
  sentencepiece::SentencePieceProcessor processor;
  load(processor, model);
  write_text(out, std::to_string(processor.GetPieceSize()) + "\n");
}

int run(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "version") {
    write_text(args[1], std::string(MLREGRESS_SENTENCEPIECE_VERSION) + "\n");
    return 0;
  }
  if (args.size() == 4 && args[0] == "train") {
    train(args[1], args[2], args[3]);
  } else if (args.size() == 4 && args[0] == "encode") {
    encode(args[1], args[2], args[3]);
  } else if (args.size() == 4 && args[0] == "decode") {
    decode(args[1], args[2], args[3]);
  } else if (args.size() == 3 && args[0] == "size") {
    size(args[1], args[2]);
  } else {
    throw ToolError(kUsage,
                    "usage: mlregress_tokenizer train VOCABULARY_SIZE CORPUS MODEL | "
                    "encode MODEL TEXT IDS | decode MODEL IDS TEXT | size MODEL OUT | version OUT");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const ToolError& error) {
    std::cerr << "mlregress_tokenizer: " << error.what() << '\n';
    return error.exit_code;
  }
}
