#include "calendar.hpp"

#include <iterator>

namespace tmasim::sc {

using sc_core::sc_time;

sc_time Calendar::book(sc_time arrival, sc_time duration, sc_time now) {
  while (!busy_.empty() && busy_.begin()->second <= now) busy_.erase(busy_.begin());
  if (busy_.empty() || arrival >= busy_.rbegin()->second) {  // after every booking: most requests
    if (duration == sc_core::SC_ZERO_TIME) return arrival;
    if (!busy_.empty() && busy_.rbegin()->second == arrival)
      busy_.rbegin()->second = arrival + duration;
    else
      busy_.emplace_hint(busy_.end(), arrival, arrival + duration);
    return arrival;
  }
  sc_time start = arrival;
  auto next = busy_.upper_bound(start);
  if (next != busy_.begin()) {
    auto prev = std::prev(next);
    if (prev->second > start) start = prev->second;
  }
  while (next != busy_.end() && next->first < start + duration) {
    if (next->second > start) start = next->second;
    ++next;
  }
  // Insert [start, end), merged with the intervals it touches.
  sc_time end = start + duration;
  if (duration == sc_core::SC_ZERO_TIME) return start;
  auto after = busy_.lower_bound(start);
  if (after != busy_.end() && after->first == end) {
    end = after->second;
    after = busy_.erase(after);
  }
  if (after != busy_.begin()) {
    auto prev = std::prev(after);
    if (prev->second == start) {
      prev->second = end;
      return start;
    }
  }
  busy_.emplace_hint(after, start, end);
  return start;
}

}  // namespace tmasim::sc
