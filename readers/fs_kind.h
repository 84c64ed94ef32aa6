// Which filesystem a path lives on, as far as watching it is concerned: inotify only reports
// changes made through the local kernel, so on a network or cluster filesystem a writer on another
// node is invisible to it and the Watcher has to poll.
#pragma once

#include <string>

namespace runtop {

// True when `path` is on a network, cluster or FUSE filesystem (by statfs f_type: NFS, Lustre,
// GPFS, CIFS/SMB/SMB2, FUSE, 9p, Ceph, AFS, BeeGFS, OrangeFS). `fs_name`, when given, receives a
// short name of the filesystem ("nfs", "ext2/3/4", or "0x..." for a type not in the table).
// A path that cannot be statfs'ed is reported as local with an empty name.
bool is_network_filesystem(const std::string& path, std::string* fs_name = nullptr);

}  // namespace runtop
