//! A list that keeps its items in order and finds, takes out or appends the item at a
//! rank (its place among the items still there) in O(log n): the bases of a unit while
//! corrections are applied, where `unit#3` is the fourth base left and a `delete`
//! renumbers the bases after it (issue 41 item 5). A `Vec` would shift every later base
//! on each delete, quadratic in a unit's size over a long corrections file.
//!
//! Items live in an arena that only grows (a removed item leaves a hole) with a Fenwick
//! tree of the items still there over it; [`Ranked::steps`] counts the tree's steps, so
//! that tests can check the cost by counting rather than timing.

/// An ordered list with O(log n) access, removal and append by rank.
#[derive(Debug, Clone, Default)]
pub struct Ranked<T> {
    /// Every item ever held, in order; `None` where one was removed.
    items: Vec<Option<T>>,
    /// Fenwick tree (1-based; `tree[0]` unused) of how many items are still there.
    tree: Vec<usize>,
    /// Items still there.
    len: usize,
    /// Tree steps taken so far (the cost of the operations).
    steps: std::cell::Cell<u64>,
}

/// The lowest set bit of `i` (the span of tree node `i`).
fn span(i: usize) -> usize {
    i & i.wrapping_neg()
}

impl<T> Ranked<T> {
    /// The list of `items`, in their order (O(n)).
    #[must_use]
    pub fn new(items: Vec<T>) -> Ranked<T> {
        let n = items.len();
        let mut tree = vec![1; n + 1];
        tree[0] = 0;
        for i in 1..=n {
            let parent = i + span(i);
            if parent <= n {
                tree[parent] += tree[i];
            }
        }
        Ranked {
            items: items.into_iter().map(Some).collect(),
            tree,
            len: n,
            steps: std::cell::Cell::new(n as u64),
        }
    }

    /// The number of items.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when it holds no item.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The tree steps taken since it was made (its construction counts one per item).
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps.get()
    }

    fn step(&self) {
        self.steps.set(self.steps.get() + 1);
    }

    /// The arena index of the item at `rank`.
    fn index(&self, rank: usize) -> Option<usize> {
        if rank >= self.len {
            return None;
        }
        // Descend the tree: the last node whose prefix count stays at or below `rank`.
        let n = self.tree.len() - 1;
        let mut at = 0;
        let mut left = rank + 1;
        let mut stride = if n == 0 { 0 } else { 1 << (usize::BITS - 1 - n.leading_zeros()) };
        while stride > 0 {
            self.step();
            let next = at + stride;
            if next <= n && self.tree[next] < left {
                at = next;
                left -= self.tree[next];
            }
            stride >>= 1;
        }
        Some(at)
    }

    /// The item at `rank`.
    #[must_use]
    pub fn get(&self, rank: usize) -> Option<&T> {
        self.index(rank).and_then(|i| self.items[i].as_ref())
    }

    /// The item at `rank`, to change it.
    pub fn get_mut(&mut self, rank: usize) -> Option<&mut T> {
        self.index(rank).and_then(|i| self.items[i].as_mut())
    }

    /// Takes out the item at `rank`; the items after it move one rank down.
    pub fn remove(&mut self, rank: usize) -> Option<T> {
        let i = self.index(rank)?;
        let item = self.items[i].take()?;
        let mut node = i + 1;
        while node < self.tree.len() {
            self.step();
            self.tree[node] -= 1;
            node += span(node);
        }
        self.len -= 1;
        Some(item)
    }

    /// Appends `item` after every other.
    pub fn push(&mut self, item: T) {
        let node = self.items.len() + 1;
        self.items.push(Some(item));
        // The new node counts itself and the nodes it spans below it.
        let mut count = 1;
        let mut child = node - 1;
        let floor = node - span(node);
        while child > floor {
            self.step();
            count += self.tree[child];
            child -= span(child);
        }
        self.tree.push(count);
        self.len += 1;
    }

    /// The items, in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.iter().flatten()
    }

    /// The items, in order, as a `Vec` (O(items ever held)).
    #[must_use]
    pub fn into_vec(self) -> Vec<T> {
        self.items.into_iter().flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Against a `Vec` doing the same: every read, removal and append agrees.
        #[test]
        fn ranks_agree_with_a_vec(
            start in proptest::collection::vec(0u32..100, 0..40),
            ops in proptest::collection::vec((0u8..3, 0usize..60, 0u32..100), 0..200),
        ) {
            let mut plain = start.clone();
            let mut ranked = Ranked::new(start);
            for (op, rank, value) in ops {
                match op {
                    0 => prop_assert_eq!(ranked.remove(rank), (rank < plain.len()).then(|| plain.remove(rank))),
                    1 => {
                        ranked.push(value);
                        plain.push(value);
                    }
                    _ => {
                        if let Some(v) = ranked.get_mut(rank) {
                            *v += 1;
                        }
                        if let Some(v) = plain.get_mut(rank) {
                            *v += 1;
                        }
                    }
                }
                prop_assert_eq!(ranked.len(), plain.len());
                for (r, v) in plain.iter().enumerate() {
                    prop_assert_eq!(ranked.get(r), Some(v));
                }
                prop_assert_eq!(ranked.get(plain.len()), None);
                prop_assert!(ranked.iter().eq(plain.iter()));
            }
            prop_assert_eq!(ranked.into_vec(), plain);
        }
    }

    #[test]
    fn each_operation_takes_logarithmic_steps() {
        let n = 1 << 16;
        let mut r = Ranked::new((0..n).collect::<Vec<u32>>());
        assert_eq!(r.steps(), u64::from(n));
        let before = r.steps();
        for k in 0..1000 {
            assert_eq!(r.remove(0), Some(k));
            r.push(k);
            assert!(r.get(n as usize / 2).is_some());
        }
        // Each of the 3,000 operations takes at most about log2(n) + 1 = 17 steps or so
        // for the descent and as many for the update.
        let per_op = (r.steps() - before) as f64 / 3000.0;
        assert!(per_op <= 2.0 * 18.0, "{per_op} steps per operation");
    }
}
