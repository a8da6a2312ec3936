# The Godot 3 peer of bench/real_loop.sh: Engine.target_fps = 60 with vsync off, so the
# engine's frame limiter (not vsync) paces; a few balls drawn each frame (cheap); each
# frame's tick (OS.get_ticks_usec() at the top of _process, i.e. the frame start) goes to
# a CSV with the tick of VisualServer's frame_post_draw signal (emitted once the frame is
# drawn and the buffers swapped: the present call's return), then the game quits after N
# frames.
#
#   godot3 --path bench/godot --video-driver GLES2 --audio-driver Dummy \
#       --ticks=out/godot.csv --frames=600
#
# CSV: "frame,tick_us,post_draw_us" then one row per frame (microseconds, OS.get_ticks_usec()).
extends Node2D

var frames := 600
var out_path := ""
var ticks := PoolIntArray()
var post_draws := PoolIntArray()
var t := 0.0

func _ready() -> void:
	OS.vsync_enabled = false
	Engine.target_fps = 60
	for arg in OS.get_cmdline_args():
		if arg.begins_with("--ticks="):
			out_path = arg.substr(8, arg.length() - 8)
		elif arg.begins_with("--frames="):
			frames = int(arg.substr(9, arg.length() - 9))
	if out_path == "":
		printerr("framepacer-peer: no --ticks=FILE given")
		get_tree().quit(2)
		return
	VisualServer.connect("frame_post_draw", self, "_on_frame_post_draw")
	print("framepacer-peer: target_fps %d, vsync %s, %d frames -> %s" % [Engine.target_fps, OS.vsync_enabled, frames, out_path])

func _process(delta: float) -> void:
	ticks.append(OS.get_ticks_usec())
	t += delta
	update()

func _on_frame_post_draw() -> void:
	if post_draws.size() >= ticks.size():
		return  # a draw with no _process before it (none expected)
	post_draws.append(OS.get_ticks_usec())
	if post_draws.size() >= frames:
		_write_and_quit()

func _draw() -> void:
	for i in range(8):
		var a := t * (1.0 + 0.2 * i) + i
		draw_circle(Vector2(320.0 + 250.0 * cos(a), 180.0 + 140.0 * sin(1.3 * a)), 12.0, Color(0.9, 0.3 + 0.08 * i, 0.2))

func _write_and_quit() -> void:
	var f := File.new()
	if f.open(out_path, File.WRITE) != OK:
		printerr("framepacer-peer: cannot write '%s'" % out_path)
		get_tree().quit(1)
		return
	f.store_line("frame,tick_us,post_draw_us")
	for i in range(post_draws.size()):
		f.store_line("%d,%d,%d" % [i, ticks[i], post_draws[i]])
	f.close()
	set_process(false)
	VisualServer.disconnect("frame_post_draw", self, "_on_frame_post_draw")
	get_tree().quit(0)
