/**
 * Loading triangle meshes from files (Wavefront OBJ, ASCII and binary STL) for static collision geometry and mass
 * properties. Scene set-up only: readers allocate, and report malformed files as a checked
 * {@link org.hapticsd.physics.io.MeshFormatException} that names the file and the line or byte offset.
 */
package org.hapticsd.physics.io;
