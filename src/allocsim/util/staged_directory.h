#pragma once
// A directory replaced as a whole: its new content is written into a temporary
// sibling (".<name>.tmp.<pid>"), and commit() swaps it into place, so a reader sees
// either the old directory or the complete new one, never a mix. Until commit the
// sibling is removed on interrupt (interrupt_cleanup.h) and by the destructor;
// siblings left by a process that died (SIGKILL) are removed when the next one
// stages the same directory.
#include <string>

#include "allocsim/util/interrupt_cleanup.h"

namespace allocsim {

class StagedDirectory {
 public:
  // Creates the temporary sibling of `target` (and the parents of `target`); a
  // failure is an InputError naming the path.
  explicit StagedDirectory(const std::string& target);
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  // Where the new content is written until commit().
  const std::string& path() const { return staging_; }
  // Puts the staged content in place of `target`, then removes the old content.
  void commit();

 private:
  void create_staging() const;

  std::string target_;
  std::string staging_;
  RemovedOnInterrupt cleanup_;
  bool committed_ = false;
};

}  // namespace allocsim
