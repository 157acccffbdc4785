#include "xor_seed_table.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace xor_table {

Table read_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  Table table;
  std::string line;
  std::getline(in, line);  // header
  for (int number = 2; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::uint64_t seed = 0;
    int stream = 0;
    SeedValues v;
    if (!(fields >> seed >> stream >> v.accuracy >> v.loss >> v.rule)) {
      throw std::runtime_error(path + ":" + std::to_string(number) +
                               ": expected seed, weight_stream, test_accuracy, train_loss, "
                               "test_set_rule_accuracy; got '" +
                               line + "'");
    }
    table[stream][seed] = v;
  }
  return table;
}

}  // namespace xor_table
