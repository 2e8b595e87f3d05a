// Opening a file the user named as an input (a checkpoint, a topology):
// only a regular file is read. A directory reads as empty on Linux, a FIFO
// blocks its reader at open, and a device such as /dev/zero never ends, so
// each is refused by name before it is opened.
#pragma once

#include <fstream>
#include <string>

namespace meso::io {

// Throws InputError "cannot read WHAT 'PATH': REASON" when it is missing
// or unreadable, and "WHAT 'PATH' is a directory (a FIFO, a character
// device, ...), not a file" when it is not a regular file.
std::ifstream open_input_file(const std::string& path, const char* what);

// The same checks without opening: for readers that open the file through a
// library of their own (HDF5), which would otherwise block on a FIFO.
void require_input_file(const std::string& path, const char* what);

}  // namespace meso::io
