#include "lm_tokenizer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "temporary_file.h"

extern char** environ;

namespace mlregress::examples {
namespace {

// Two syllables a word, so that BPE has pieces to merge below the whole words.
constexpr std::array<const char*, 4> kSyllables = {"ka", "lo", "mi", "tu"};

std::string word_of(std::int64_t token) {
  return std::string(kSyllables[static_cast<std::size_t>(token / 4 % 4)]) +
         kSyllables[static_cast<std::size_t>(token % 4)];
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_lines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path, std::ios::binary);
  for (const std::string& line : lines) out << line << '\n';
  if (!out.flush()) throw TokenizerError(path + ": cannot write");
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Runs the tool with `args` and waits; its stderr becomes the TokenizerError when it fails.
void run_tool(const std::vector<std::string>& args) {
  const std::string tool = tokenizer_tool();
  const TemporaryFile errors("tokenizer-errors.txt");
  std::vector<std::string> argv_text = {tool};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, tool.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw TokenizerError(tool + ": cannot run the tokenizer tool");
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string message = read_text(errors.path);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw TokenizerError(message.empty() ? tool + ": failed without a message" : message);
  }
}

}  // namespace

std::string tokenizer_tool() {
  const char* chosen = std::getenv("MLREGRESS_TOKENIZER_TOOL");
  if (chosen != nullptr && *chosen != '\0') return chosen;
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return (self.parent_path() / "mlregress_tokenizer").string();
}

std::string tokenizer_version() {
  const TemporaryFile version("tokenizer-version.txt");
  run_tool({"version", version.path});
  std::string text = read_text(version.path);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string describe_tokenizer(std::int64_t vocabulary_size) {
  return "sentencepiece " + tokenizer_version() + " bpe, " + std::to_string(vocabulary_size) +
         " pieces";
}

std::vector<std::string> render_text(const torch::Tensor& sequences) {
  const auto tokens = sequences.accessor<std::int64_t, 2>();
  std::vector<std::string> lines;
  for (std::int64_t row = 0; row < sequences.size(0); ++row) {
    std::string line;
    for (std::int64_t t = 0; t < sequences.size(1); ++t) {
      if (t > 0) line += ' ';
      line += word_of(tokens[row][t]);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

void train_tokenizer(const std::vector<std::string>& lines, int vocabulary_size,
                     const std::string& path) {
  const TemporaryFile corpus("tokenizer-corpus.txt");
  write_lines(corpus.path, lines);
  run_tool({"train", std::to_string(vocabulary_size), corpus.path, path});
}

Tokenizer::Tokenizer(std::string path) : path_(std::move(path)) {
  const TemporaryFile size("tokenizer-size.txt");
  run_tool({"size", path_, size.path});
  vocabulary_size_ = std::stoll(read_text(size.path));
}

std::vector<std::vector<std::int64_t>> Tokenizer::encode(
    const std::vector<std::string>& lines) const {
  const TemporaryFile text("tokenizer-text.txt");
  const TemporaryFile ids("tokenizer-ids.txt");
  write_lines(text.path, lines);
  run_tool({"encode", path_, text.path, ids.path});
  std::vector<std::vector<std::int64_t>> encoded;
  for (const std::string& line : read_lines(ids.path)) {
    std::istringstream in(line);
    encoded.emplace_back(std::istream_iterator<std::int64_t>(in),
                         std::istream_iterator<std::int64_t>());
  }
  return encoded;
}

std::vector<std::string> Tokenizer::decode(
    const std::vector<std::vector<std::int64_t>>& ids) const {
  std::vector<std::string> lines;
  for (const std::vector<std::int64_t>& sequence : ids) {
    std::string line;
    for (std::size_t i = 0; i < sequence.size(); ++i)
      line += (i > 0 ? " " : "") + std::to_string(sequence[i]);
    lines.push_back(std::move(line));
  }
  const TemporaryFile ids_file("tokenizer-ids.txt");
  const TemporaryFile text("tokenizer-text.txt");
  write_lines(ids_file.path, lines);
  run_tool({"decode", path_, ids_file.path, text.path});
  return read_lines(text.path);
}

torch::Tensor encode_lines(const Tokenizer& tokenizer, const std::vector<std::string>& lines,
                           std::int64_t length, std::int64_t pad) {
  torch::Tensor out =
      torch::full({static_cast<std::int64_t>(lines.size()), length}, pad, torch::kLong);
  auto rows = out.accessor<std::int64_t, 2>();
  const std::vector<std::vector<std::int64_t>> encoded = tokenizer.encode(lines);
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    const std::size_t kept =
        std::min<std::size_t>(encoded[i].size(), static_cast<std::size_t>(length));
    for (std::size_t t = 0; t < kept; ++t)
      rows[static_cast<std::int64_t>(i)][static_cast<std::int64_t>(t)] = encoded[i][t];
  }
  return out;
}

}  // namespace mlregress::examples
