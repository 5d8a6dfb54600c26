// graph/src/string_interner.h
//
// Internal: process-wide interning of the short strings that repeat across
// every node of a graph (op types, attribute names), so that each object
// stores one pointer instead of a std::string. Interned strings live until
// the process exits (the table is bounded by the number of distinct names).
//
// Example
//   const std::string* type = internal::InternString("Conv2D");
//   type == internal::InternString(std::string("Conv2D"));  // same pointer
#ifndef GRAPH_SRC_STRING_INTERNER_H_
#define GRAPH_SRC_STRING_INTERNER_H_

#include <string>

#include "absl/strings/string_view.h"

namespace ge {
namespace internal {

// Thread-safe; never returns null; equal strings give equal pointers.
const std::string* InternString(absl::string_view s);
// The interned empty string.
const std::string* EmptyInternedString();

}  // namespace internal
}  // namespace ge

#endif  // GRAPH_SRC_STRING_INTERNER_H_
