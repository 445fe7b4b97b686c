# generated the pickles
