#include "allocsim/profile/pprof_wire_scan.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "allocsim/profile/profile.pb.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::io::CodedInputStream;
using Wire = google::protobuf::internal::WireFormatLite;

class WireScan {
 public:
  WireScan(const std::string& data, const std::string& path)
      : in_(reinterpret_cast<const std::uint8_t*>(data.data()), static_cast<int>(data.size())), path_(path) {}

  void run() {
    if (!message(pprof::Profile::descriptor(), true)) {
      throw InputError(path_ + ": not a pprof profile (the protobuf does not parse as a Profile)");
    }
  }

 private:
  // The fields of one message up to the current limit; false when malformed. A
  // nested message may hold fields of a newer profile.proto (they are counted).
  bool message(const Descriptor* type, bool top) {
    for (std::uint32_t tag; (tag = in_.ReadTag()) != 0;) {
      const FieldDescriptor* field = type->FindFieldByNumber(static_cast<int>(Wire::GetTagFieldNumber(tag)));
      if (field == nullptr && top) {
        throw InputError(path_ + ": not a pprof profile (a protobuf of another message: unknown "
                                 "fields or no string table starting with \"\")");
      }
      if (!value(field, Wire::GetTagWireType(tag))) return false;
    }
    return in_.ConsumedEntireMessage();
  }

  bool value(const FieldDescriptor* field, Wire::WireType wire) {
    std::uint64_t number = 0;
    std::uint32_t word = 0;
    switch (wire) {
      case Wire::WIRETYPE_VARINT: add_scalars(1); return in_.ReadVarint64(&number);
      case Wire::WIRETYPE_FIXED64: add_scalars(1); return in_.ReadLittleEndian64(&number);
      case Wire::WIRETYPE_FIXED32: add_scalars(1); return in_.ReadLittleEndian32(&word);
      case Wire::WIRETYPE_LENGTH_DELIMITED: return length_delimited(field);
      default: return false;  // groups are not in profile.proto
    }
  }

  bool length_delimited(const FieldDescriptor* field) {
    std::uint32_t length = 0;
    if (!in_.ReadVarint32(&length) || length > static_cast<std::uint32_t>(in_.BytesUntilLimit())) return false;
    const bool nested = field != nullptr && field->type() == FieldDescriptor::TYPE_MESSAGE;
    const bool packed = field != nullptr && field->is_repeated() && field->is_packable();
    if (!nested && !packed) {  // a string, or bytes of a field this proto does not know
      add_messages(1);
      return in_.Skip(static_cast<int>(length));
    }
    const auto limit = in_.PushLimit(static_cast<int>(length));
    bool ok = true;
    if (nested) {  // profile.proto nests three deep at most: no recursion bound needed
      add_messages(1);
      ok = message(field->message_type(), false);
    } else {
      for (std::uint64_t number = 0; ok && in_.BytesUntilLimit() > 0;) {
        add_scalars(1);
        ok = in_.ReadVarint64(&number);
      }
    }
    in_.PopLimit(limit);
    return ok;
  }

  void add_messages(std::size_t count) {
    messages_ += count;
    if (messages_ > kMaxPprofMessages) {
      throw InputError(path_ + ": more than " + std::to_string(kMaxPprofMessages) +
                       " messages and strings in the protobuf (the limit)");
    }
  }
  void add_scalars(std::size_t count) {
    scalars_ += count;
    if (scalars_ > kMaxPprofScalars) {
      throw InputError(path_ + ": more than " + std::to_string(kMaxPprofScalars) +
                       " numbers in the protobuf (the limit)");
    }
  }

  CodedInputStream in_;
  const std::string& path_;
  std::size_t messages_ = 0;
  std::size_t scalars_ = 0;
};

}  // namespace

void check_pprof_wire(const std::string& data, const std::string& path) { WireScan(data, path).run(); }

}  // namespace allocsim::profile
