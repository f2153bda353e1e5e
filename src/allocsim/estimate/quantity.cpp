#include "allocsim/estimate/quantity.h"

namespace allocsim {

const char* to_string(Quantity q) {
  switch (q) {
    case Quantity::requested_bytes: return "requested_bytes";
    case Quantity::allocated_bytes: return "allocated_bytes";
    case Quantity::count: return "count";
    case Quantity::net_allocated_bytes: return "net_allocated_bytes";
  }
  return "?";
}

}  // namespace allocsim
