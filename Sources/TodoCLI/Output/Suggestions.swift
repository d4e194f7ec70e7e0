/// Finds the candidate a mistyped word most likely meant, for "did you mean 'list'?" hints.
///
/// Comparison ignores case. In order:
/// 1. a candidate equal to `word`;
/// 2. the only candidate that starts with `word` (`lis` → `list`);
/// 3. the candidate at the smallest optimal-string-alignment distance (Levenshtein plus
///    adjacent transpositions, so `lsit` is one edit from `list`), provided that distance is at
///    most `max(1, word.count / 3)`; on a tie the candidate listed first wins.
///
/// Returns nil when nothing is close enough: a wild guess is worse than no hint.
///
/// ```swift
/// closestMatch(to: "lsit", in: ["add", "list", "show"])  // "list"
/// closestMatch(to: "xyz", in: ["add", "list", "show"])   // nil
/// ```
func closestMatch(to word: String, in candidates: [String]) -> String? {
  let typed = Array(word.lowercased())
  guard !typed.isEmpty else { return nil }
  let lowered = candidates.map { Array($0.lowercased()) }

  if let exact = lowered.firstIndex(of: typed) { return candidates[exact] }

  let prefixed = lowered.indices.filter { lowered[$0].starts(with: typed) }
  if Set(prefixed.map { candidates[$0] }).count == 1, let only = prefixed.first {
    return candidates[only]
  }

  let limit = max(1, typed.count / 3)
  var best: (index: Int, distance: Int)?
  for index in lowered.indices {
    let distance = optimalStringAlignmentDistance(typed, lowered[index])
    if distance <= limit && distance < (best?.distance ?? Int.max) {
      best = (index, distance)
    }
  }
  return best.map { candidates[$0.index] }
}

/// The number of insertions, deletions, substitutions and adjacent transpositions turning
/// `source` into `target`, with no substring edited twice (the restricted Damerau-Levenshtein
/// distance, which is what typos need).
func optimalStringAlignmentDistance(_ source: [Character], _ target: [Character]) -> Int {
  if source.isEmpty { return target.count }
  if target.isEmpty { return source.count }
  // Three rolling rows: the one before the previous is needed for transpositions.
  var beforePrevious = [Int](repeating: 0, count: target.count + 1)
  var previous = Array(0...target.count)
  var current = [Int](repeating: 0, count: target.count + 1)
  for i in 1...source.count {
    current[0] = i
    for j in 1...target.count {
      let cost = source[i - 1] == target[j - 1] ? 0 : 1
      var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1 && j > 1 && source[i - 1] == target[j - 2] && source[i - 2] == target[j - 1] {
        distance = min(distance, beforePrevious[j - 2] + 1)
      }
      current[j] = distance
    }
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[target.count]
}
