// One Exodus II file written by all ranks of a group at once.
//
// Life of a writer (every call collective over the group, every rank
// passing the same definitions; capi checks and agrees the arguments):
//   1. create: rank 0 makes the file (truncating one there), then the
//      others open it;
//   2. definition(): the counts, blocks, sets, records and variable names
//      (exodus/model.h), the same on every rank;
//   3. end_define: the model is built and placed (CDF-2, CDF-5 where a
//      variable outgrows it), rank 0 writes the header and the small
//      variables (ids, names, QA/info, truth table);
//   4. the mesh, each rank passing only what it holds: put_nodes (the
//      nodes its elements use, with global ids and coordinates), put_block
//      (its elements of a block, global ids and connectivity by global
//      node ids), put_attributes, put_node_set, put_side_set;
//   5. per step: begin_step (the time), put_global_values, put_values
//      (nodal and element variables), each after its prepare_* half and
//      the caller's agreement; ending a step writes the global values and
//      the time, syncs and raises numrecs (by StepSync); begin_step, flush
//      and close end an open step;
//   6. close.
// Or, after a restart: append (an existing file, or the last file of a
// series, its definition and mesh adopted from the header), attach_nodes /
// attach_block (each rank's part by global id, looked up in the file's id
// maps), then 5 and 6.
// With WriterOptions::steps_per_file, begin_step moves to the next file of
// the series every n steps (next_file: the header and mesh copied).
//
// Where things land (the file does not depend on the number of ranks):
//   - nodes in increasing global id: a node's position is its rank among
//     all distinct ids (collective/key_sort.h); a node several ranks pass
//     is written by one of them, the lowest rank holding it (the key
//     sort's owner), for coordinates, the id map and every nodal value;
//   - elements in increasing global id within their block, blocks one
//     after the other in definition order (elem_num_map likewise);
//   - connectivity: global node ids become 1-based node positions, from
//     the rank's own nodes or the distributed directory
//     (exodus/directory.h); nobody holds all ids;
//   - set entries in increasing node position (node sets) or (element
//     position, side) (side sets), with their distribution factors.
// Each array goes through the collective engine (one decomposition per
// entity, reused for every step; aggregators write big buffers; the
// caller's type becomes the file's, big-endian).
//
// Crash safety: numrecs (the count of steps a reader sees) is raised by
// rank 0 only after every rank's data of the step is written and, unless
// the options say otherwise (StepSync below), synced with the step's time
// value.
//
// Failures: every method returns the same status on every rank; a rank's
// bad part (ids not positive or repeated, a count that does not add up, a
// connectivity or set naming an id nobody passed) fails the call
// everywhere before anything of it is written.
//
// Thread safety: one thread per rank calls a writer.
#pragma once

#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/element_type.h"
#include "base/status.h"
#include "collective/decomposition.h"
#include "collective/target.h"
#include "collective/transfer.h"
#include "comm/group.h"
#include "device/async.h"
#include "device/storage.h"
#include "exodus/directory.h"
#include "exodus/model.h"
#include "exodus/reader.h"

namespace pario::exodus {

// When a step is made durable before readers count it (PARIO_EXODUS_SYNC,
// read by capi). Whatever the policy, numrecs is written only after every
// rank's data of the step and its time value are written, so a killed
// process never leaves a counted step incomplete; the policies differ in
// what a crash of the machine (the page cache lost) can leave:
//   kOverlap  every rank starts syncing step k on a helper thread when
//             step k ends and goes on with step k+1; numrecs becomes k when
//             step k+1 ends (or at flush or close), after every rank's
//             sync of step k succeeded. A machine crash loses at most the
//             steps not yet counted: 1..k-1 stay when it strikes during k+1.
//   kStep     the default: every rank syncs when step k ends, then
//             numrecs becomes k (the writer waits for the disk each step;
//             1..k stay; a writer killed during step k leaves 1..k-1, as
//             issue 27 asks and as SEACAS's ex_update each step does).
//   kNone     numrecs becomes k when step k ends, no sync until close: a
//             killed process leaves 1..k readable (the page cache has it),
//             a machine crash may leave counted steps unwritten.
enum class StepSync : int { kOverlap = 0, kStep = 1, kNone = 2 };

// What capi hands down.
struct WriterOptions {
  collective::CollectiveOptions collective;  // byte order: always big-endian here
  std::shared_ptr<device::Storage> storage;  // where the file is made
  device::AsyncEngine* engine = nullptr;     // the transfers' engine (required)
  StepSync step_sync = StepSync::kStep;      // when a step is durable before it is counted
  // File series (PXI's second file mode): 0 keeps every step in one file;
  // n > 0 puts steps 1..n in the first file (path) and each next n steps in
  // a new file path-s0002, path-s0003, ... (SEACAS/IOSS's names, which
  // ParaView groups as one series), every file a whole Exodus file with
  // the mesh (copied from the file before) and its steps from record 0.
  // Writer::append with n > 0: path is the first file of such a series,
  // continued in its last file (series.h).
  int steps_per_file = 0;
  // Nemesis I load-balance information for the writing ranks' partition
  // (exodus/nemesis.h), written once the nodes and every block are in;
  // steps only after that. New files only.
  bool nemesis = false;
};

// The name of file `index` (1-based) of a series: path itself for the
// first, then path-s0002, path-s0003, ... (at least four digits).
std::string series_name(const std::string& path, int index);

class Writer {
 public:
  // Collective over group: makes the file at path (replacing one there).
  static Result<std::unique_ptr<Writer>> create(std::shared_ptr<const comm::Group> group, const std::string& path,
                                                WriterOptions options);
  // Collective over group (any number of ranks, not necessarily those
  // that wrote it): opens an existing Exodus file to append steps after a
  // restart. The definition and the mesh are the file's; steps continue at
  // numrecs + 1 (a step a killed writer left half-written past numrecs is
  // overwritten). Each rank then names what it holds with attach_nodes and
  // attach_block before putting values. kUnsupported for files whose real
  // record variables do not all have one type. With
  // options.steps_per_file = n > 0, path is the first file of a series of
  // n steps per file: the run continues in the series' last file (found
  // and checked by find_series_end, series.h) at the run's step
  // (file - 1) * n + its numrecs + 1, and goes on to new files every n
  // steps as a new series does. With 0, path must not be the first file of
  // a series (kInvalidArgument when path-s0002 exists).
  static Result<std::unique_ptr<Writer>> append(std::shared_ptr<const comm::Group> group, const std::string& path,
                                                WriterOptions options);
  ~Writer();

  // The definition, to be changed alike on every rank before end_define.
  Definition& definition() { return def_; }
  bool defining() const { return defining_; }
  const Layout& layout() const { return layout_; }
  int steps() const { return steps_; }        // steps ended
  int counted_steps() const { return numrecs_; }  // steps in numrecs (kOverlap: may lag one behind)
  int open_step() const { return open_; }     // the step begun and not ended, or 0

  // The mesh calls and end_define come in two halves too, as the step
  // calls below: check_* (local: this rank's checks, and end_define's
  // build and placement of the model, the same on every rank) before the
  // caller's one entry agreement, the *_checked call (collective) after it
  // succeeded on every rank; the plain call is both, with its own
  // agreement between (docs/architecture.md, "Agreements of the mesh
  // calls"). check_* of a mesh call needs the definition ended (kState
  // otherwise: the plain call ends it first).
  Status end_define();
  Status check_define();
  Status end_define_checked();
  Status check_nodes(int64_t n, const int64_t* ids, ElementType mem_type, const void* const coords[3]);
  Status put_nodes_checked(int64_t n, const int64_t* ids, ElementType mem_type, const void* const coords[3]);
  Status check_block(size_t b, int64_t n, const int64_t* ids, const int64_t* connectivity) const;
  Status put_block_checked(size_t b, int64_t n, const int64_t* ids, const int64_t* connectivity);
  Status check_attributes(size_t b, const void* values) const;
  Status put_attributes_checked(size_t b, ElementType mem_type, const void* values);
  Status check_node_set(size_t s, int64_t n, const int64_t* node_ids, ElementType mem_type, const void* df) const;
  Status put_node_set_checked(size_t s, int64_t n, const int64_t* node_ids, ElementType mem_type, const void* df);
  Status check_side_set(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, ElementType mem_type,
                        const void* df) const;
  Status put_side_set_checked(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, ElementType mem_type,
                              const void* df);
  Status check_side_set_df(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, const int* df_counts,
                           ElementType mem_type, const void* df) const;
  Status put_side_set_df_checked(size_t s, int64_t n, const int64_t* elem_ids, const int* sides,
                                 const int* df_counts, ElementType mem_type, const void* df);
  // n nodes: global ids (> 0), coordinates of mem_type (coords[d] for each
  // of num_dim dimensions; may be null only when n == 0).
  Status put_nodes(int64_t n, const int64_t* ids, ElementType mem_type, const void* const coords[3]);
  // Block b (0-based, definition order): n elements, ids (> 0) and
  // n * nodes_per_element global node ids.
  Status put_block(size_t b, int64_t n, const int64_t* ids, const int64_t* connectivity);
  // The block's attributes for the elements of put_block, in its order.
  Status put_attributes(size_t b, ElementType mem_type, const void* values);
  // Node set s: n global node ids; df (n values) when the set has factors.
  Status put_node_set(size_t s, int64_t n, const int64_t* node_ids, ElementType mem_type, const void* df);
  // Side set s: n (global element id, side 1..15); df (n * df_per_entry).
  Status put_side_set(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, ElementType mem_type,
                      const void* df);
  // Side set s of a varying number of factors per side (SetDef::df_total):
  // n sides, df_counts[k] factors for side k, df their sum of values, side
  // after side. All ranks' counts (of the sides each writes) add up to
  // df_total.
  Status put_side_set_df(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, const int* df_counts,
                         ElementType mem_type, const void* df);
  // After append: this rank's n nodes by global id (the file's
  // node_num_map), in the order of later nodal values; a node several ranks
  // name is written by the lowest one. kInvalidArgument names an id the
  // file does not have.
  Status attach_nodes(int64_t n, const int64_t* ids);
  // After append: this rank's n elements of block b by global id, in the
  // order of later element values; an element named by two ranks is an error.
  Status attach_block(size_t b, int64_t n, const int64_t* ids);
  bool appending() const { return reader_ != nullptr; }
  int file_index() const { return file_index_; }  // 1-based, in the series
  int first_step() const { return first_step_; }  // the run's steps in the series' files before this one

  // The step calls come in two halves, so that the caller's one entry
  // agreement (capi's, which also checks the arguments) is their only
  // agreement besides a transfer's end: per step, put_time and
  // put_global_values make one allreduce each, a nodal or element
  // variable two (docs/architecture.md, "Agreements per step").
  //   prepare_*  local, on every rank before that agreement: this rank's
  //              checks and the local part of the work; its status goes
  //              into the agreement. Idempotent: a prepare whose agreement
  //              failed leaves nothing that a second one would not redo
  //              (rank 0 writes the open step's global values and time again,
  //              a sync's status once collected is kept).
  //   the call   collective: on every rank once the agreement succeeded,
  //              never after it failed.
  //
  // Step `step` (1-based, the next one) at `time`, ending an open one: its
  // local part collects the sync of the step before (kOverlap), has rank 0
  // write the open step's global values and time, and syncs (kStep).
  Status prepare_time(int step, double time);
  Status begin_step(int step, double time);
  // All ranks pass the same global values (num_glo_var of them), kept until
  // the step ends, when rank 0 writes them with the time (so a write error
  // is the put_time, flush or close that ends the step).
  Status prepare_global_values(int step, ElementType mem_type, const void* values);
  void put_global_values();
  // Nodal variable v (0-based) for the nodes of put_nodes, in its order;
  // element variable v of block b for the elements of put_block. The
  // transfer is prepared (collective::Transfer::prepare, kBlocking: values
  // borrowed until put_values returns) and its agreement values are set
  // (values[Transfer::kAgreementValues], for the agreement to reduce by
  // maximum); null where nothing moves (a block without elements) or the
  // checks failed (*local).
  std::unique_ptr<collective::Transfer> prepare_nodal_values(int step, size_t v, ElementType mem_type,
                                                             const void* values, int64_t* agreement, Status* local);
  std::unique_ptr<collective::Transfer> prepare_element_values(int step, size_t v, size_t b, ElementType mem_type,
                                                               const void* values, int64_t* agreement,
                                                               Status* local);
  // Collective: the prepared transfer (null on every rank or none), begun
  // with the agreed values and waited for.
  Status put_values(std::unique_ptr<collective::Transfer> t, const int64_t* agreed);
  // Ends the open step and counts every ended step in numrecs, synced
  // (kNone: not synced).
  Status prepare_flush();
  Status flush();
  // Ends the step and the definition, makes the file its full size, closes.
  // abandon: closes without ending the definition (no header is written).
  // In two halves as flush: prepare_close (local: the open step ended and
  // synced, kOverlap's pending sync collected) and close_checked with the
  // agreed status of every rank's prepare_close (closes whatever it is:
  // a failure is returned, the file is closed all the same). One
  // agreement after the entry's: the file's end (rank 0's numrecs, size
  // and sync) with every rank's close of the device.
  Status close(bool abandon = false);
  Status prepare_close();
  Status close_checked(Status prepared, bool abandon);

 private:
  Writer() = default;
  // Rank 0 does `work`; every rank returns its status.
  template <typename Work>
  Status on_root(Work&& work);
  Status write_array(collective::Decomposition& d, int var, int64_t record, int64_t first, ElementType mem_type,
                     const void* buf);
  // as_is: the caller's values are already in the file's byte order (the
  // writer's own buffers), so they travel as they are. use: kKept for the
  // decompositions every step uses (the nodes' and blocks' reals: the
  // options' aggregator buffer), kOnce for the mesh's arrays, written once
  // (the maps, connectivity, sets, attributes): a buffer of at most
  // kOnceBufferBytes, so an aggregator's two windows for them stay small
  // beside the mesh the ranks hold at that moment, and freed with the
  // decomposition (not kept in spare_buffers_; docs/performance.md,
  // "Aggregator memory at P = 4": at S the connectivity window of 15.4 MB
  // was the aggregator's whole excess over the other ranks).
  enum class Use { kOnce, kKept };
  static constexpr int64_t kOnceBufferBytes = 4 << 20;
  Result<std::unique_ptr<collective::Decomposition>> decomposition(std::vector<collective::Run> runs,
                                                                   int64_t global_size, NcType type,
                                                                   bool as_is = false, Use use = Use::kOnce);
  Result<std::unique_ptr<collective::Decomposition>> decomposition_of(const std::vector<int64_t>& positions,
                                                                      int64_t global_size, int64_t per_entry,
                                                                      NcType type, bool as_is = false,
                                                                      Use use = Use::kOnce);
  Status free_decomposition(std::unique_ptr<collective::Decomposition>& d);
  // A mesh call's state: open, the definition ended.
  Status mesh_call() const;
  // prepare_flush and prepare_close: the open step ended and synced and
  // the pending sync collected (what: the call, for messages).
  Status end_steps_local(const char* what);
  Status check_step(int step, const char* what);
  // closed_, or the failure carried from after the last agreement.
  Status usable() const;
  // Ending the open step (nothing when none is open): by
  // options.step_sync, syncs and raises numrecs (kOverlap: the sync of
  // this step starts, numrecs counts the step before it). In two halves,
  // as the step calls: end_step_local (local, idempotent: the sync of the
  // step before collected, rank 0's writes of the global values and the
  // time, kStep's sync), and after an agreement of its status (the entry
  // agreement of put_time), end_step_agreed.
  Status end_step_local();
  void end_step_agreed();
  // Rank 0 writes the open step's global values (if put) and time.
  Status write_step_scalars();
  // Rank 0 writes the current file's numrecs: count steps counted in all
  // (the files of the series before this one hold first_step_ of them);
  // collective, agreed (raise_numrecs), or after an agreement with rank
  // 0's failure carried to the next one (note_numrecs).
  Status write_numrecs(int count);
  Status raise_numrecs(int count);
  void note_numrecs(int count);
  // kOverlap: this rank's sync of the pending step, waited for once and
  // kept (nothing pending: OK).
  Status collect_pending();
  // kOverlap: collects the pending sync, agrees, and counts the step
  // (nothing pending: nothing).
  Status count_pending();
  // The record of `step` in the current file of the series.
  int64_t record_of(int step) const { return step - 1 - first_step_; }
  // Makes the current file its full size with steps_ - first_step_ records,
  // synced (rank 0); collective.
  Status finish_file(bool close = false);
  // Series: the next file, made from the current one's header and fixed
  // data (the mesh), with no records yet.
  Status next_file();
  // After append: the definition, model and layout from the file's view.
  Status adopt(const FileInfo& info, const Header& header);
  Status ready_for_data();
  // Ranks a set's keys and checks the count; positions out.
  Status rank_entries(const std::vector<int64_t>& keys, const SetDef& def, const char* kind,
                      std::vector<int64_t>* positions);
  // A side set's entries from this rank, once side_checks passed on every
  // rank: looked up and ranked, nothing written; *positions as
  // rank_entries, *elems their 0-based element positions.
  Status side_entries(size_t s, int64_t n, const int64_t* elem_ids, const int* sides,
                      std::vector<int64_t>* positions, std::vector<int64_t>* elems);
  // side_entries' local checks (df_check: the caller's of its factors).
  Status side_checks(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, Status df_check) const;
  // put_side_set_df's factors: each side's first in df (*where), checked.
  Status side_factors(size_t s, int64_t n, const int* df_counts, ElementType mem_type, const void* df,
                      std::vector<int64_t>* where) const;
  // Writes side_entries' result (elem_ss, side_ss), once every check of
  // the call has been agreed; elems becomes 1-based on the way.
  Status write_sides(size_t s, const std::vector<int64_t>& positions, std::vector<int64_t>& elems, const int* sides);

  // Nemesis (exodus/nemesis.cpp). put_nodes: which of this rank's nodes
  // (positions) other ranks hold too. put_block: the sides of block b's
  // elements (nodes1: their connectivity, 1-based positions) that may touch
  // another rank's element. finish: once the mesh is in, the lists, the
  // model, the header and the data. ready: kState while not finished.
  Status nemesis_nodes(const std::vector<int64_t>& positions);
  void nemesis_faces(size_t b, const std::vector<int64_t>& nodes1);
  bool nemesis_shared(int64_t position) const;
  bool mesh_complete() const;
  Status nemesis_finish();
  Status nemesis_ready(const char* what) const;
  // The Nemesis part is written once, by the put that completes the mesh,
  // and never again: a put_nodes or put_block that failed after it was
  // accepted (nodes or block counted as put) or a failed nemesis_finish
  // leaves the part unwritten for good (nem_.failure, the same on every
  // rank: each failure there is agreed), and the file's plain header
  // (without the Nemesis variables) in place. nemesis_failed keeps s as
  // that failure; nemesis_refusal is what a retry of the put (or a step)
  // gets then.
  Status nemesis_failed(Status s);
  Status nemesis_refusal(const char* what) const;
  // put_block once its checks were agreed and the block counted as put.
  Status put_block_data(size_t b, int64_t n, const int64_t* ids, bool narrow, std::vector<int32_t>& nodes32,
                        std::vector<int64_t>& nodes, std::vector<int64_t>& wide);
  // Writes this rank's slice of a per-processor list (all_counts: every
  // rank's length, in rank order).
  Status nemesis_write_list(int var, const std::vector<int64_t>& values, const std::vector<int64_t>& all_counts);
  // put_nodes and put_block end here: the Nemesis part once the mesh is in.
  Status mesh_put();

  std::shared_ptr<const comm::Group> group_;
  int rank_ = 0;
  std::string path_;
  WriterOptions options_;
  std::unique_ptr<device::Device> device_;
  std::unique_ptr<collective::Target> target_;
  Definition def_;
  Built built_;
  Layout layout_;
  bool defining_ = true;
  bool closed_ = false;
  // The aggregator buffers the steps' decompositions below (node_reals_,
  // each block's reals) keep between transfers: one set for all (the
  // largest any needs), not one each (declared first: it outlives them).
  collective::SpareBuffers spare_buffers_;

  // Nodes as this rank passed them: global id -> position, owned or not;
  // the decomposition of the owned ones (reals).
  bool have_nodes_ = false;
  int64_t local_nodes_ = 0;
  IdTable nodes_;
  std::unique_ptr<collective::Decomposition> node_reals_;
  std::vector<int64_t> staged_hashes_;  // check_nodes' coordinate hashes, for put_nodes_checked
  // Elements per block: position in the block of each local element, the
  // decomposition for element values; id -> element position (all blocks).
  struct LocalBlock {
    bool put = false;
    std::vector<int64_t> positions;
    std::unique_ptr<collective::Decomposition> reals;
  };
  std::vector<LocalBlock> blocks_;
  IdTable elements_;  // every block's elements of this rank, all owned

  // Nemesis: this rank's node positions (increasing), (position, other
  // rank) for its nodes other ranks hold too (sorted), the sides offered
  // for matching (6 words each), and whether the part is written.
  struct NemesisState {
    std::vector<int64_t> nodes;
    std::vector<std::pair<int64_t, int>> shared;
    std::vector<int64_t> faces;
    bool done = false;
    Status failure;  // why the part was not written (see nemesis_failed)
  };
  NemesisState nem_;

  // Append mode: the file's reader (its maps answer attach_*).
  std::unique_ptr<Reader> reader_;
  int first_step_ = 0;  // steps in the files of the series before this one
  int file_index_ = 1;

  int steps_ = 0;    // steps ended, in all files of the series
  int numrecs_ = 0;  // steps counted (this file's numrecs + first_step_)
  int open_ = 0;     // the step begun, 0 when none
  // kOverlap: the step whose sync runs on a helper thread (0: none) and
  // that sync's status. The helper only calls device_->sync().
  int pending_ = 0;
  std::future<Status> pending_sync_;
  Status pending_status_;  // the pending sync's status, once collected
  Status sync_error_;  // the first failed sync: no step is counted after it
  // Rank 0's failure to write numrecs after an agreement: every later
  // call on the file fails with it (the step count in the file is wrong).
  Status carried_;
  double time_ = 0;
  // The open step's global values in the file's type and byte order
  // (globals_step_: the step they belong to, 0: none); the next ones while
  // their call agrees (staged_globals_).
  std::vector<unsigned char> globals_, staged_globals_;
  int globals_step_ = 0;
};

}  // namespace pario::exodus
