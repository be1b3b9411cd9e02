// Package datasets holds the data side of LatFormer: typed ARC grids and tasks, their encoding on a
// fixed canvas (padded with the pad token), the synthetic geometric tasks of Appendix B.1, and the
// augmentations of Appendix B.
package datasets
