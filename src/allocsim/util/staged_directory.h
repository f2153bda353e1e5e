#pragma once
// A directory replaced as a whole: its new content is written into a temporary
// sibling (".<name>.tmp.<pid>"), and commit() swaps it into place, so a reader sees
// either the old directory or the complete new one, never a mix. Until commit the
// sibling is removed on interrupt (interrupt_cleanup.h) and by the destructor;
// siblings left by a process that died (SIGKILL) are removed when the next one
// stages the same directory.
//
// Only what allocsim wrote is ever replaced or removed (output_path.h): the staged
// directory gets the marker file kResultsMarker before anything else, an existing
// target is replaced only while it carries that marker, and the target may not
// hold an input of the command, the working directory or a system directory.
#include <string>

#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"

namespace allocsim {

// True for a name of the form ".<name>.tmp.<digits>" (and ".old" after it): the
// staged directory of a target <name>. A later staging of <name> takes one left by
// a dead process for abandoned and removes it, so no results directory is named so.
bool is_staged_directory_name(const std::string& name);

class StagedDirectory {
 public:
  // Checks `target` with check_results_directory (an InputError naming `what` when
  // it may not be replaced), then creates the temporary sibling (and the one parent
  // of `target`, if missing) holding the marker, whose text names `written_by`.
  StagedDirectory(const std::string& target, const InputPaths& inputs, const std::string& written_by,
                  const std::string& what);
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  // Where the new content is written until commit().
  const std::string& path() const { return staging_; }
  // Puts the staged content in place of `target`, then removes the old content.
  // A target that appeared meanwhile without the marker is left alone (InputError).
  void commit();

 private:
  void create_staging(const std::string& written_by) const;

  std::string target_;
  std::string what_;
  std::string staging_;
  RemovedOnInterrupt cleanup_;
  bool committed_ = false;
};

}  // namespace allocsim
