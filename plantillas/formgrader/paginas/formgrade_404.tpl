{#- nbgrader 0.9.6's formgrade_404.tpl imports macros from a file it does not ship (a 500); the
    course's: a plain page, every value escaped (autoescape), no script. -#}
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{{ notebook_id }}</title>
  <link rel="stylesheet" href="{{ resources.base_url }}/formgrader/static/node_modules/bootstrap/dist/css/bootstrap.min.css" />
</head>
<body>
  <div class="container">
    <ol class="breadcrumb">
      <li><a href="{{ resources.base_url }}/formgrader/gradebook">Manual Grading</a></li>
      <li><a href="{{ resources.base_url }}/formgrader/gradebook/{{ resources.assignment_id | urlencode }}">{{ resources.assignment_id }}</a></li>
      <li class="active">{{ notebook_id }}</li>
    </ol>
    <div class="panel panel-default">
      <div class="panel-heading">
        <h4 class="panel-title">
          <span>{{ notebook_id }}</span>
          <span class="pull-right">Submission {{ resources.index + 1 }} / {{ resources.total }}</span>
        </h4>
      </div>
      <div class="panel-body" id="notebook-container">
        Error: Submission notebook file not found: {{ filename }}
      </div>
    </div>
  </div>
</body>
</html>
