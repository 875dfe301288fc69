/** Small primitive collections the modules share (a set of longs without boxing). */
package dev.infermon.model.util;
