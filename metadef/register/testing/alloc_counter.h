// metadef/register/testing/alloc_counter.h
//
// Counting global operator new / delete for run-path allocation tests
// (testonly target //metadef/register:alloc_counter). Linking the target
// replaces every replaceable form of operator new / delete in the test
// binary (the library is static and alwayslink); allocations are counted
// only inside an AllocCountingScope, so test setup may allocate freely.
//
// Contract
//   * One binary links at most one replacement: tests that depend on this
//     target must not define their own operator new.
//   * Counting is process-wide (any thread allocating inside the window is
//     counted); scopes must not nest.
//   * With ALLOC_TRACE set in the environment, the stacks of the first three
//     counted allocations of each scope are printed to stderr.
//
// Example
//   alloc_counter::AllocCountingScope scope;
//   RunKernel();
//   EXPECT_EQ(scope.count(), 0);
#ifndef METADEF_REGISTER_TESTING_ALLOC_COUNTER_H_
#define METADEF_REGISTER_TESTING_ALLOC_COUNTER_H_

#include <cstdint>

namespace alloc_counter {

// Starts counting on construction, stops on destruction.
class AllocCountingScope {
 public:
  AllocCountingScope();
  ~AllocCountingScope();
  AllocCountingScope(const AllocCountingScope&) = delete;
  AllocCountingScope& operator=(const AllocCountingScope&) = delete;

  // Allocations (every operator new form) since construction, outside
  // third-party library calls.
  int64_t count() const;
  // Allocations inside third-party library calls that the compute engine
  // marks (oneDNN 2.6's primitive execute builds a map of its arguments on
  // every call): counted apart, never in count().
  int64_t library_count() const;
};

}  // namespace alloc_counter

#endif  // METADEF_REGISTER_TESTING_ALLOC_COUNTER_H_
