#include "readers/fs_kind.h"

#include <fmt/format.h>
#include <sys/vfs.h>

#include <cstdint>

namespace runtop {
namespace {

struct FsType {
    std::uint64_t magic;
    const char* name;
    bool network;
};

// f_type values from linux/magic.h and the vendors' sources (Lustre, GPFS, BeeGFS, OrangeFS do
// not ship in linux/magic.h). The local entries only give messages a readable name.
constexpr FsType kTypes[] = {
    {0x6969, "nfs", true},          {0x0BD00BD0, "lustre", true}, {0x47504653, "gpfs", true},
    {0xFF534D42, "cifs", true},     {0x517B, "smb", true},        {0xFE534D42, "smb2", true},
    {0x65735546, "fuse", true},     {0x01021997, "9p", true},     {0x00C36400, "ceph", true},
    {0x5346414F, "afs", true},      {0x6B414653, "afs", true},    {0x19830326, "beegfs", true},
    {0x20030528, "orangefs", true}, {0xEF53, "ext2/3/4", false},  {0x58465342, "xfs", false},
    {0x9123683E, "btrfs", false},   {0x01021994, "tmpfs", false}, {0x794C7630, "overlayfs", false},
    {0x2FC12FC1, "zfs", false},     {0xF2F52010, "f2fs", false},
};

}  // namespace

bool is_network_filesystem(const std::string& path, std::string* fs_name) {
    struct statfs st;
    if (::statfs(path.c_str(), &st) != 0) {
        if (fs_name) fs_name->clear();
        return false;
    }
    // f_type is a signed word on some ABIs: compare its low 32 bits, where every magic lives.
    auto magic = static_cast<std::uint64_t>(static_cast<std::uint32_t>(st.f_type));
    for (const FsType& t : kTypes) {
        if (t.magic == magic) {
            if (fs_name) *fs_name = t.name;
            return t.network;
        }
    }
    if (fs_name) *fs_name = fmt::format("{:#x}", magic);
    return false;
}

}  // namespace runtop
